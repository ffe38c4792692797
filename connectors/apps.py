from django.apps import AppConfig


class ConnectorsConfig(AppConfig):
    """Documents opened from elsewhere: a URL (the original's /accessor/load) and
    the REST providers of its connectors (/connector/documents)."""

    name = "connectors"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from connectors.conf import providers

        providers()  # a bad TRANSFORMSVC_CONNECTORS stops the process at start
