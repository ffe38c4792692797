from django.apps import AppConfig


class AnnotationsConfig(AppConfig):
    """The original's annotation store (/annotation): a viewer saves annotations
    on a document and gets them back; and FDF/XFDF conversion."""

    name = "annotations"
    default_auto_field = "django.db.models.BigAutoField"
