"""Merge and convert: several calls that make one file, as the command line
does them (upload, wait for what must be converted, one order, download)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from transformsvc_client.client import Client
from transformsvc_client.shapes import Order
from transformsvc_client.transformations import element, output, request
from transformsvc_client.watch import Silent, Watcher


@dataclass(frozen=True, slots=True)
class Made:
    """A file made by the service and downloaded: the order that made it, the
    document it is, where it was written and its size in bytes."""

    order: Order
    document_id: str
    path: Path
    size: int
    uploads: tuple[str, ...]


def upload_readable(
    client: Client, source: Path, watcher: Watcher, *, title: str | None = None
) -> str:
    """Upload `source` (titled by its name) and wait until its pages can be read."""
    watcher.note(f"uploading {source}")
    document_id = client.documents.upload(source, title=title or source.name)
    info = client.documents.info(document_id)
    if info.format != "pdf" and info.conversion_order_ids.get("pdf"):
        watcher.note(f"converting {source.name} ({info.format}) to PDF")
    client.wait_readable(document_id, progress=watcher.order)
    return document_id


def merge(
    client: Client,
    sources: Sequence[Path],
    dest: Path,
    *,
    title: str | None = None,
    watcher: Watcher | None = None,
) -> Made:
    """One PDF of every page of `sources`, in order: each uploaded (Office files,
    images, e-mails... converted by the service), then one transformation order."""
    watcher = watcher or Silent()
    ids = [upload_readable(client, Path(source), watcher) for source in sources]
    body = request([output([element(i) for i in ids], title=title or dest.name)])
    order_id = client.transformations.create(body)
    watcher.note(f"merging {len(ids)} documents: order {order_id}")
    order = client.transformations.wait_success(order_id, progress=watcher.order)
    assert order.result_id, order.raw
    size = client.documents.download(order.result_id, dest, format="pdf")
    return Made(order, order.result_id, dest, size, tuple(ids))


def default_converted_path(source: Path, to: str, pages: int | None) -> Path:
    """`in.docx` → `in.pdf`; several pages as images come as a zip (`in.zip`);
    never the source itself (`in.pdf` → `in-converted.pdf`)."""
    suffix = "zip" if to in ("png", "jpg", "jpeg") and (pages or 0) > 1 else to
    dest = source.with_suffix("." + suffix)
    if dest.resolve() == source.resolve():
        dest = source.with_name(f"{source.stem}-converted.{suffix}")
    return dest


def convert(
    client: Client,
    source: Path,
    to: str,
    *,
    dest: Path | None = None,
    watcher: Watcher | None = None,
) -> Made:
    """`source` in format `to` (pdf, docx, odt, txt, png...) through a conversion
    order; written to `dest` (see `default_converted_path` when None)."""
    watcher = watcher or Silent()
    watcher.note(f"uploading {source}")
    document_id = client.documents.upload(source, title=source.name)
    # The PDF of an upload that needs one is already ordered: wait for that order
    # (its error names what is wrong with the file) rather than a second one.
    rendition = client.documents.info(document_id).conversion_order_ids.get("pdf")
    order_id = rendition if to == "pdf" and rendition else None
    order_id = order_id or client.conversions.create(document_id, to)
    watcher.note(f"converting {source.name} to {to}: order {order_id}")
    order = client.conversions.wait_success(order_id, progress=watcher.order)
    if dest is None:
        pages = client.documents.info(document_id).page_count
        dest = default_converted_path(source, to, pages)
    size = client.documents.download(document_id, dest, format=to)
    return Made(order, document_id, dest, size, (document_id,))
