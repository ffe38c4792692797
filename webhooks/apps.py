from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """Orders POSTed to their callback URL when they end, signed (Standard
    Webhooks), retried with backoff from the workers, every attempt kept."""

    name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from jobs.signals import order_ended
        from webhooks import dispatcher, services

        order_ended.connect(services.on_order_ended, dispatch_uid="webhooks")
        dispatcher.connect()
