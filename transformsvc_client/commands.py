"""What each command of `transformsvc` does, given the parsed arguments.

Results go to stdout (an id, a layout, hits, an order as JSON), progress and
summaries to stderr (see `progress`). Pages are numbered from 1 for people."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from transformsvc_client import flows, redaction
from transformsvc_client.client import Client
from transformsvc_client.errors import ProblemError
from transformsvc_client.orders import OrderResource
from transformsvc_client.progress import StderrProgress, describe
from transformsvc_client.shapes import Layout, Order

ORDER_KINDS = ("transformation", "conversion", "comparison")


def _out(text: str) -> None:
    """A result line on stdout (progress and notes go to stderr)."""
    sys.stdout.write(text + "\n")


class UsageError(Exception):
    """The command line asks for something impossible (exit 2)."""


def _input(name: str) -> Path:
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"no such file: {name}")
    return path


def _output(name: str) -> Path:
    path = Path(name)
    if not path.parent.is_dir():
        raise UsageError(f"no such directory for the output: {path.parent}")
    return path


def upload(client: Client, args: argparse.Namespace, progress: StderrProgress) -> int:
    source = _input(args.file)
    document_id = client.documents.upload(
        source,
        title=args.title or source.name,
        ocr=args.ocr,
        document_id=args.document_id,
    )
    _out(document_id)
    return 0


def list_documents(
    client: Client, args: argparse.Namespace, progress: StderrProgress
) -> int:
    formats = [f for f in (args.format or "").split(",") if f]
    found = client.documents.every(show=args.show, formats=formats, words=args.words)
    for doc in found:
        pages = "-" if doc.page_count is None else str(doc.page_count)
        _out(f"{doc.id}\t{doc.format}\t{pages}\t{doc.title or ''}")
    return 0


def _layout_lines(layout: Layout, indent: str = "") -> list[str]:
    title = layout.title or layout.document_id
    if indent:  # a part: its id, to read or search it on its own
        title = f"{title} [{layout.document_id}]"
    if layout.is_container:
        lines = [f"{indent}{title} ({layout.mime_type}): {len(layout.children)} parts"]
        for part in layout.children:
            lines += _layout_lines(part, indent + "  ")
        return lines
    pages = len(layout.pages)
    lines = [f"{indent}{title} ({layout.mime_type}): {pages} page{'s' * (pages != 1)}"]
    if layout.rendition_error:
        lines.append(f"{indent}  not readable: {layout.rendition_error}")
    for number, page in enumerate(layout.pages, start=1):
        dpi = "" if page.dpi == 72 else f", {page.dpi} dpi"
        lines.append(
            f"{indent}  page {number}: {page.width} x {page.height} pt, "
            f"rotation {page.rotation}{dpi}"
        )
    return lines


def layout(client: Client, args: argparse.Namespace, progress: StderrProgress) -> int:
    found = client.documents.layout(args.id)
    if args.json:
        _out(json.dumps(found.raw, indent=2))
    else:
        _out("\n".join(_layout_lines(found)))
    if found.rendition_error:
        # Its conversion failed: the document has no pages to read.
        progress.quiet = False
        progress.note(f"transformsvc: not readable: {found.rendition_error}")
        return 1
    return 0


def search(client: Client, args: argparse.Namespace, progress: StderrProgress) -> int:
    hits = client.documents.search(
        args.id,
        args.text,
        regex=args.regex,
        case_sensitive=args.case_sensitive,
        accent_sensitive=args.accent_sensitive,
    )
    if args.json:
        _out(json.dumps([hit.raw for hit in hits], indent=2))
        return 0
    for hit in hits:
        box = hit.box
        _out(
            f"page {hit.page_label}: {hit.text!r} at x {box.x:.1f}, y {box.y:.1f} "
            f"({box.w:.1f} x {box.h:.1f} pt)"
        )
    pages = len({hit.page for hit in hits})
    progress.note(
        f"{len(hits)} hit{'s' * (len(hits) != 1)} on {pages} page{'s' * (pages != 1)}"
    )
    return 0


def redact(client: Client, args: argparse.Namespace, progress: StderrProgress) -> int:
    if not args.text and not args.rule:
        raise UsageError("give at least one --text or --rule")
    done = redaction.redact(
        client,
        _input(args.file),
        _output(args.output),
        texts=args.text,
        rules=args.rule,
        case_sensitive=args.case_sensitive,
        keep_upload=args.keep_upload,
        watcher=progress,
    )
    if done.by_rules:
        what = "by rules"
    else:
        areas = sum(done.found.values())
        pages = ", ".join(str(p) for p in done.pages) or "none"
        what = f"{areas} area{'s' * (areas != 1)} on pages {pages}"
    progress.note(
        f"redacted {what}; wrote {done.path} ({done.size} bytes, document "
        f"{done.document_id})"
    )
    return 0


def merge(client: Client, args: argparse.Namespace, progress: StderrProgress) -> int:
    sources = [_input(name) for name in args.files]
    done = flows.merge(
        client, sources, _output(args.output), title=args.title, watcher=progress
    )
    progress.note(f"wrote {done.path} ({done.size} bytes, document {done.document_id})")
    return 0


def convert(client: Client, args: argparse.Namespace, progress: StderrProgress) -> int:
    source = _input(args.file)
    dest = _output(args.output) if args.output else None
    done = flows.convert(client, source, args.to, dest=dest, watcher=progress)
    progress.note(f"wrote {done.path} ({done.size} bytes, document {done.document_id})")
    return 0


def download(client: Client, args: argparse.Namespace, progress: StderrProgress) -> int:
    dest = _output(args.output)
    size = client.documents.download(args.id, dest, format=args.format)
    progress.note(f"wrote {dest} ({size} bytes)")
    return 0


def _resources(client: Client) -> dict[str, OrderResource]:
    return {
        "transformation": client.transformations,
        "conversion": client.conversions,
        "comparison": client.comparisons,
    }


def find_order(
    client: Client, order_id: str, kind: str | None
) -> tuple[OrderResource, Order]:
    """The order and its kind's resource: `kind`'s, else the first kind that
    knows the id. When none does, the 404 of a kind that says more than "no such
    order" (deleted or cancelled, and when), else one naming every kind."""
    resources = _resources(client)
    if kind:
        resource = resources[kind]
        return resource, resource.get(order_id)
    missing: list[ProblemError] = []
    for name in ORDER_KINDS:
        try:
            return resources[name], resources[name].get(order_id)
        except ProblemError as problem:
            if problem.status != 404:
                raise
            missing.append(problem)
    for answer in missing:
        if _says_more(answer):
            raise answer
    raise ProblemError(
        status=404,
        title=missing[0].title,
        detail=f"no {', '.join(ORDER_KINDS[:-1])} or {ORDER_KINDS[-1]} order "
        f"with id {order_id!r}",
        request_id=missing[0].request_id,
    )


# What every problem body carries; more than these means a 404 tells something.
_PLAIN_PROBLEM = {"type", "title", "status", "detail", "requestId", "errors"}


def _says_more(problem: ProblemError) -> bool:
    detail = problem.detail.lower()
    return bool(set(problem.body) - _PLAIN_PROBLEM) or any(
        word in detail for word in ("deleted", "cancelled", "canceled")
    )


def _print_order(order: Order) -> int:
    _out(json.dumps(order.raw, indent=2))
    return 1 if order.failed else 0


def order_get(
    client: Client, args: argparse.Namespace, progress: StderrProgress
) -> int:
    _, order = find_order(client, args.id, args.kind)
    progress.note(describe(order))
    if order.failed:
        progress.note(f"failed: {order.error_message}")
    return _print_order(order)


def order_wait(
    client: Client, args: argparse.Namespace, progress: StderrProgress
) -> int:
    resource, order = find_order(client, args.id, args.kind)
    progress.order(order)
    if not order.done:
        order = resource.wait(order.id, progress=progress.order)
    if order.failed:
        progress.quiet = False
        progress.note(
            f"transformsvc: {order.kind} order {order.id} failed: {order.error_message}"
        )
    return _print_order(order)
