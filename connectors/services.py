"""Opening documents from elsewhere: a URL (`POST /accessor/load`) and a REST
provider (`POST /connector/documents`), both through the documents' own intake
(`documents.services.document_create`): the same detection, limits and
conversions as an upload.

A provider's document has an id made from the provider, the parameters that
name the document and the caller (as the original, which caches by the
provider's `whitelistedParams`): opening it again answers the same document
without fetching it again, until it is deleted.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Mapping, Sequence

from connectors.conf import Provider, default_provider, providers
from connectors.providers import fetch_document
from documents.models import Document
from documents.selectors import document_get, documents_visible
from documents.services import document_create
from documents.storage import temp_path
from transformsvc.problems import Conflict, InvalidInput

# Names the ids of documents opened through providers (uuid5).
_NAMESPACE = uuid.UUID("6b1f3c52-8f0e-4b8a-9a57-7c0e2f1d4a90")


def accessor_load(*, url: str, title: str | None, owner_id: int | None) -> Document:
    """The document at `url`, fetched and stored as `documentUrl` is (http or
    https to a public address unless allowlisted, every redirect checked, time
    and size limits); a new document each time."""
    try:
        return document_create(stream=None, url=url, title=title, owner_id=owner_id)
    except InvalidInput as exc:
        if exc.errors and "documentUrl" in exc.errors:
            raise InvalidInput(
                exc.detail.replace("documentUrl", "url"),
                errors={"url": exc.errors["documentUrl"]},
                code=exc.code,
            ) from exc
        raise


def connector_open(
    *,
    provider_id: str | None,
    params: Mapping[str, str],
    owner_id: int | None,
) -> Document:
    """The document `params` name at the provider `provider_id` (the default
    provider when None): the one opened before with the same parameters, or
    fetched now and stored. With no provider named nor configured as the
    default, a `url` parameter opens the document at that URL, as the
    original falls back to opening by URL."""
    if not (provider_id or default_provider()) and params.get("url"):
        return accessor_load(
            url=params["url"], title=params.get("documentTitle"), owner_id=owner_id
        )
    provider = _provider(provider_id)
    forwarded = _forwarded(provider, params)
    document_id = _document_id(provider, forwarded, owner_id)
    opened = documents_visible(owner_id).filter(pk=document_id).first()
    if opened is not None:
        return opened
    with temp_path() as path:
        title = fetch_document(provider, forwarded, path)
        with path.open("rb") as body:
            try:
                return document_create(
                    stream=body, document_id=document_id, title=title, owner_id=owner_id
                )
            except Conflict:  # a concurrent request opened it first
                return document_get(document_id, owner_id)


def _provider(provider_id: str | None) -> Provider:
    configured = providers()
    name = provider_id or default_provider()
    if not name:
        raise InvalidInput(
            "name the provider in the X-Provider-ID header (no default provider "
            "is configured)",
            errors={"X-Provider-ID": ["required"]},
        )
    provider = configured.get(name)
    if provider is None:
        known = ", ".join(sorted(configured)) or "none"
        raise InvalidInput(
            f"no provider {name!r} is configured (configured: {known})",
            errors={"X-Provider-ID": ["unknown provider"]},
        )
    return provider


def _forwarded(provider: Provider, params: Mapping[str, str]) -> list[tuple[str, str]]:
    """The parameters sent to the provider, sorted: those it takes (all when it
    lists none), non-empty. 400 when none is left."""
    kept = sorted(
        (name, value)
        for name, value in params.items()
        if value and (not provider.params or name in provider.params)
    )
    if not kept:
        wanted = ", ".join(provider.params) or "any"
        raise InvalidInput(
            f"give the parameters that name the document at provider "
            f"{provider.id!r} ({wanted})",
            errors={"body": ["no document parameter"]},
        )
    return kept


def _document_id(
    provider: Provider, params: Sequence[tuple[str, str]], owner_id: int | None
) -> str:
    """`b64_` + Base64 of a UUID, as every generated id (decisions §2), here a
    UUID5 of the provider, the parameters and the owner: the same document for
    the same request."""
    name = "\n".join(
        [provider.id, str(owner_id or ""), *(f"{k}={v}" for k, v in params)]
    )
    return (
        "b64_" + base64.b64encode(str(uuid.uuid5(_NAMESPACE, name)).encode()).decode()
    )
