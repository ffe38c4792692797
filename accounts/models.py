"""API keys of owners (TRANSFORMSVC_AUTH=token); an owner is a Django user."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiKey(models.Model):
    """A bearer key of an owner; only its hash is stored."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_keys"
    )
    name = models.CharField(max_length=100, blank=True, default="")
    prefix = models.CharField(max_length=12, editable=False)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    # Where orders created with this key are POSTed when they end, unless the
    # order names its own callbackUrl.
    callback_url = models.URLField(max_length=2048, null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.owner})"


class WebhookSecret(models.Model):
    """The `whsec_` secret the webhooks of an owner's orders are signed with
    (Standard Webhooks); kept in clear, as the signature needs it."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    secret = models.CharField(max_length=100)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"webhook secret of {self.owner}"
