"""API keys: creation (the plain key is shown once) and lookup by hash."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.utils import timezone

from documents.models import ApiKey

PREFIX = "tsk_"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def apikey_create(*, owner_name: str, name: str = "") -> tuple[ApiKey, str]:
    """A new key for `owner_name` (created as a user without a password if new)."""
    user_model = get_user_model()
    owner, created = user_model.objects.get_or_create(username=owner_name)
    if created:
        owner.set_unusable_password()
        owner.save(update_fields=["password"])
    plain = PREFIX + secrets.token_urlsafe(32)
    key = ApiKey.objects.create(
        owner=owner, name=name, prefix=plain[:12], key_hash=hash_key(plain)
    )
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
