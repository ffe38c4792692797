from django.db import models

from jobs.models import OrderBase


class ToyOrder(OrderBase):
    """Shouts its word. `sleep:<s>` sleeps first, `fail` fails as the engine would,
    `crash` fails as a bug would."""

    word = models.CharField(max_length=100)
    result = models.CharField(max_length=100, null=True, blank=True)

    def __str__(self) -> str:
        return f"toy {self.id} ({self.state})"
