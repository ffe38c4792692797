"""API keys: creation (the plain key is shown once) and lookup by hash."""

from __future__ import annotations

import base64
import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import ApiKey, WebhookSecret

PREFIX = "tsk_"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_plain_key() -> str:
    """A new random key, as its owner will send it."""
    return PREFIX + secrets.token_urlsafe(32)


def fill_key(key: ApiKey) -> str:
    """Give `key` a new secret (prefix and hash); returns the plain key, shown once."""
    plain = new_plain_key()
    key.prefix, key.key_hash = plain[:12], hash_key(plain)
    return plain


def new_webhook_secret() -> str:
    """A Standard Webhooks secret: `whsec_` and 24 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def webhook_secret_of(owner_id: int) -> str:
    """The owner's webhook signing secret, made on first use."""
    found, _ = WebhookSecret.objects.get_or_create(
        owner_id=owner_id, defaults={"secret": new_webhook_secret()}
    )
    return found.secret


def apikey_create(
    *, owner_name: str, name: str = "", callback_url: str | None = None
) -> tuple[ApiKey, str]:
    """A new key for `owner_name` (created as a user without a password if new),
    whose owner has a webhook secret from now on."""
    user_model = get_user_model()
    owner, created = user_model.objects.get_or_create(username=owner_name)
    if created:
        owner.set_unusable_password()
        owner.save(update_fields=["password"])
    key = ApiKey(owner=owner, name=name, callback_url=callback_url)
    plain = fill_key(key)
    key.save(force_insert=True)
    webhook_secret_of(owner.pk)
    return key, plain


def apikey_owner(plain: str) -> ApiKey | None:
    key = (
        ApiKey.objects.select_related("owner")
        .filter(key_hash=hash_key(plain), is_active=True, owner__is_active=True)
        .first()
    )
    if key is not None and (
        key.last_used_at is None
        or (timezone.now() - key.last_used_at).total_seconds() > 60
    ):
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=timezone.now())
    return key
