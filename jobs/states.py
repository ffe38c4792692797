"""Order states with their wire values (decisions §6), shared by every order kind."""

from django.db import models


class State(models.TextChoices):
    QUEUED = "QUEUED"
    PROCESSING = "PROCESSING"
    PROCESSED = "PROCESSED"
    FAILED = "FAILED"


FINAL_STATES = (State.PROCESSED, State.FAILED)
