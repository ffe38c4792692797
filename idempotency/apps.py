from django.apps import AppConfig


class IdempotencyConfig(AppConfig):
    """Idempotency-Key on the create calls: a retried request gets the first
    answer instead of doing the work twice."""

    name = "idempotency"
    default_auto_field = "django.db.models.BigAutoField"
