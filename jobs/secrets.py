"""Secrets an order needs until its worker runs (an output's passwords), sealed
with a key derived from SECRET_KEY: the database never holds them in clear, and
a request's echo never shows them."""

from __future__ import annotations

import base64
import hashlib
import os

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.conf import settings

PREFIX = "sealed:v1:"


def _key() -> bytes:
    return hashlib.sha256(
        b"transformsvc order secrets\0" + settings.SECRET_KEY.encode()
    ).digest()


def seal(secret: str) -> str:
    nonce = os.urandom(12)
    sealed = AESGCM(_key()).encrypt(nonce, secret.encode(), PREFIX.encode())
    return PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(value: str) -> str:
    """The secret `seal` sealed (a value that is not sealed is returned as is)."""
    if not value.startswith(PREFIX):
        return value
    raw = base64.urlsafe_b64decode(value[len(PREFIX) :])
    return AESGCM(_key()).decrypt(raw[:12], raw[12:], PREFIX.encode()).decode()
