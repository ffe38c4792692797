from django.apps import AppConfig


class DocumentsConfig(AppConfig):
    name = "documents"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from documents.renditions.engines import start_pool_with_workers

        start_pool_with_workers()
