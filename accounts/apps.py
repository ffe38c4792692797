from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """API keys and their owners: who is calling, and what they may see."""

    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The bearer key's scheme in the API description.
        from accounts import schema  # noqa: F401
