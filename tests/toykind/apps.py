from django.apps import AppConfig


class ToyKindConfig(AppConfig):
    """A kind of order that exists only in the tests: it proves that a new kind
    plugs into jobs/ by registering itself, with no edit anywhere else."""

    name = "tests.toykind"
    label = "toykind"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from jobs.registry import OrderKind, register
        from tests.toykind.models import ToyOrder

        register(
            OrderKind(
                "toy",
                ToyOrder,
                "tests.toykind.tasks.run_toy",
                # Words starting "scan" stand for recognition: the OCR queue.
                queues=lambda orders: [
                    "ocr" if order.word.startswith("scan") else "main"
                    for order in orders
                ],
            )
        )
