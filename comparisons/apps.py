from django.apps import AppConfig


class ComparisonsConfig(AppConfig):
    name = "comparisons"
    default_auto_field = "django.db.models.BigAutoField"
