"""Fetching a document from a REST provider, as the original's provider contract
says (its Provider API): `GET <base URL>/documents?<parameters>` answers the
file (its title in `Content-Disposition`), or a JSON `ProviderFolder` whose
files are fetched in turn with their own `parameters`.

Every request goes through the service's one fetcher (`engines.fetch`), with the
checks of `documentUrl`: the address resolved once and checked, every redirect
checked again, time and size limits. The provider's own host counts as
allowlisted (the operator named it); anywhere it redirects to is checked like
any URL. A composite document becomes a zip of its files, a sub-folder a zip
inside it, so that it opens as a container whose parts keep the folder's order.
"""

from __future__ import annotations

import email.message
import json
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from connectors.conf import Provider
from connectors.errors import ProviderDenied, ProviderFailed
from documents.storage import temp_path
from engines import fetch
from transformsvc.conf import service
from transformsvc.problems import NotFound, PayloadTooLarge

# A ProviderFolder is a small JSON document; more is not a folder.
MAX_FOLDER_BYTES = 4 * 1024 * 1024


class _Budget:
    """What one composite document may take: files, bytes, nesting."""

    def __init__(self) -> None:
        conf = service()
        self.files = conf.archive_max_entries
        self.bytes = conf.url_max_bytes
        self.depth = conf.container_max_depth

    def take(self, size: int) -> None:
        self.bytes -= size
        if self.bytes < 0:
            raise PayloadTooLarge(
                f"the provider's document is larger than {service().url_max_bytes} bytes"
            )


def fetch_document(
    provider: Provider, params: Sequence[tuple[str, str]], dest: Path
) -> str | None:
    """Write at `dest` the document `params` name at `provider`: its file, or a
    zip of a folder's files. Returns its title (the file's name the provider
    gives, the folder's name), None when it gives none."""
    answer = _get(provider, params)
    folder = _folder(answer)
    if folder is None:
        return _save(answer, dest, _Budget())
    _pack(provider, folder, dest, _Budget(), depth=1)
    return _text(folder.get("name"))


def _get(provider: Provider, params: Sequence[tuple[str, str]]) -> fetch.Fetched:
    conf = service()
    url = f"{provider.base_url}/documents?{urlencode(list(params))}"
    what = f"provider {provider.id!r}"
    try:
        return fetch.open_url(
            url,
            allowlist=frozenset(
                {h.lower() for h in conf.url_allowlist} | {provider.host}
            ),
            timeout=conf.url_timeout,
            max_bytes=conf.url_max_bytes,
            deadline=conf.url_deadline,
            what=what,
        )
    except fetch.FetchStatus as exc:
        if exc.status in (401, 403):
            raise ProviderDenied(f"{what} denied access to the document") from exc
        if exc.status == 404:
            raise NotFound(f"{what} has no document for {dict(params)}") from exc
        raise ProviderFailed(str(exc)) from exc
    except fetch.FetchTooLarge as exc:
        raise PayloadTooLarge(str(exc)) from exc
    except fetch.FetchRefused as exc:  # out of reach, or sent somewhere refused
        raise ProviderFailed(str(exc)) from exc


def _folder(answer: fetch.Fetched) -> dict[str, Any] | None:
    """The ProviderFolder a JSON answer holds; None for a file."""
    if not answer.headers.get("content-type", "").startswith("application/json"):
        return None
    data = b"".join(_chunks(answer.chunks, MAX_FOLDER_BYTES))
    try:
        found = json.loads(data)
    except ValueError as exc:
        raise ProviderFailed(
            f"the provider's JSON answer does not parse: {exc}"
        ) from exc
    if not isinstance(found, dict) or found.get("type") != "folder":
        raise ProviderFailed("the provider's JSON answer is not a ProviderFolder")
    return found


def _chunks(chunks: Iterator[bytes], limit: int) -> Iterator[bytes]:
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > limit:
            raise ProviderFailed(f"the provider's folder is larger than {limit} bytes")
        yield chunk


def _save(answer: fetch.Fetched, dest: Path, budget: _Budget) -> str | None:
    with dest.open("wb") as out:
        try:
            for chunk in answer.chunks:
                budget.take(len(chunk))
                out.write(chunk)
        except fetch.FetchTooLarge as exc:
            raise PayloadTooLarge(str(exc)) from exc
        except fetch.FetchRefused as exc:
            raise ProviderFailed(str(exc)) from exc
    return _file_name(answer.headers.get("content-disposition", ""))


def _pack(
    provider: Provider,
    folder: Mapping[str, Any],
    dest: Path,
    budget: _Budget,
    depth: int,
) -> None:
    """A zip at `dest` of the folder's files in order, sub-folders as zips."""
    if depth > budget.depth:
        raise ProviderFailed(
            f"the provider's folders nest deeper than {budget.depth} levels"
        )
    contents = folder.get("contents")
    if not isinstance(contents, list):
        raise ProviderFailed("the provider's folder has no contents list")
    names: set[str] = set()
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED) as archive:
        for number, item in enumerate(contents, start=1):
            if not isinstance(item, dict):
                raise ProviderFailed(
                    "an item of the provider's folder is not an object"
                )
            with temp_path() as part:
                if item.get("type") == "folder":
                    _pack(provider, item, part, budget, depth + 1)
                    name = _entry(item.get("name"), number, ".zip", names)
                else:
                    budget.files -= 1
                    if budget.files < 0:
                        raise ProviderFailed(
                            f"the provider's folder holds more than "
                            f"{service().archive_max_entries} files"
                        )
                    answer = _get(provider, _params(item))
                    given = _save(answer, part, budget)
                    name = _entry(item.get("name") or given, number, "", names)
                archive.write(part, name)


def _params(item: Mapping[str, Any]) -> list[tuple[str, str]]:
    raw = item.get("parameters")
    if not isinstance(raw, dict) or not raw:
        raise ProviderFailed("a file of the provider's folder has no parameters")
    return sorted((str(k), str(v)) for k, v in raw.items())


def _entry(raw: object, number: int, suffix: str, taken: set[str]) -> str:
    """A zip entry name from a provider's name: no folders, no control
    characters, unique in its zip."""
    text = _text(raw) or ""
    base = "".join(
        c for c in text.replace("\\", "/").rsplit("/", 1)[-1] if c.isprintable()
    )
    base = base.strip(" .") or f"document-{number}"
    if suffix and not base.lower().endswith(suffix):
        base += suffix
    name, count = base, 1
    while name in taken:
        count += 1
        stem, dot, ext = base.rpartition(".")
        name = f"{stem} ({count}).{ext}" if dot and stem else f"{base} ({count})"
    taken.add(name)
    return name


def _file_name(disposition: str) -> str | None:
    """The file name of a Content-Disposition header (`filename*` first)."""
    if not disposition:
        return None
    header = email.message.Message()
    header["content-disposition"] = disposition
    return header.get_filename() or None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
