"""Standard Webhooks signatures: `webhook-id`, `webhook-timestamp` and
`webhook-signature` (v1, HMAC-SHA256 over `id.timestamp.body`), with the
owner's `whsec_` secret, or the instance's one when authentication is off."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import datetime

from django.conf import settings
from standardwebhooks.webhooks import Webhook

from accounts.keys import webhook_secret_of
from transformsvc.conf import service


def instance_secret() -> str:
    """TRANSFORMSVC_WEBHOOK_SECRET, else one derived from SECRET_KEY (stable
    across nodes and restarts, as every node shares SECRET_KEY)."""
    configured = str(service().webhook_secret or "")
    if configured:
        return configured
    derived = hmac.new(
        settings.SECRET_KEY.encode(), b"transformsvc webhooks", hashlib.sha256
    ).digest()
    return "whsec_" + base64.b64encode(derived).decode()


def secret_for(owner_id: int | None) -> str:
    return instance_secret() if owner_id is None else webhook_secret_of(owner_id)


def signed_headers(
    secret: str, message_id: str, at: datetime, body: str
) -> dict[str, str]:
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Webhook(secret).sign(message_id, at, body),
    }
