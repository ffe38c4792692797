from django.apps import AppConfig


class ComparisonsConfig(AppConfig):
    """The text difference, and comparison orders painting differing pixels."""

    name = "comparisons"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from comparisons.models import ComparisonOrder
        from comparisons.serializers import ComparisonOrderSerializer
        from comparisons.services import results_delete
        from jobs.registry import OrderKind, register

        register(
            OrderKind(
                name="comparison",
                model=ComparisonOrder,
                task="comparisons.tasks.run_comparison",
                serializer=ComparisonOrderSerializer,
                delete_results=results_delete,
            )
        )
