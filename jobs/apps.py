from django.apps import AppConfig


class JobsConfig(AppConfig):
    """What every kind of order shares: states, claim/finish, the worker lifecycle,
    recovery, heartbeats, the long poll, the queue broker and the admin base."""

    name = "jobs"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from jobs import heartbeat, queues

        heartbeat.connect()
        queues.connect()
