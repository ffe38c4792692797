"""Redact a file's words: upload it, find them, one order, download, and check
that none is left.

Two ways to say what goes, chosen by what the caller asks:
- by search (what every version of the service takes): each text is searched,
  every hit becomes a `RedactTextElemType` area, one order redacts them all;
- by rules (`rules`, e.g. the `email` preset): the texts and rules are sent as
  `redactionRules` and the service finds the matches itself. A server that does
  not take rules refuses the field (400) or, older, ignores it: both raise
  `RulesUnsupported` before anything is downloaded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from transformsvc_client.annotations import redact_text
from transformsvc_client.client import Client
from transformsvc_client.errors import ClientError, ProblemError
from transformsvc_client.flows import upload_readable
from transformsvc_client.shapes import Order, SearchHit
from transformsvc_client.transformations import element, output, request
from transformsvc_client.watch import Silent, Watcher

# The request field that carries redaction rules, one place to change it.
RULES_FIELD = "redactionRules"


class RulesUnsupported(ClientError):
    """The server does not take redaction rules."""

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"redaction rules (--rule) are not supported by this server: {reason}"
        )
        self.reason = reason


class RedactionIncomplete(ClientError):
    """The redacted output still contains some of the texts (counts by text)."""

    def __init__(self, left: dict[str, int]) -> None:
        found = ", ".join(f"{text!r} {count}x" for text, count in left.items())
        super().__init__(f"the redacted document still contains {found}")
        self.left = left


@dataclass(frozen=True, slots=True)
class Redacted:
    """The downloaded redacted file: `found` counts the areas of each text (by
    search; empty when the service found them by rules), `pages` the pages with an
    area, counted from 1."""

    order: Order
    document_id: str
    path: Path
    size: int
    by_rules: bool
    found: dict[str, int] = field(default_factory=dict)
    pages: tuple[int, ...] = ()


def rule_specs(
    texts: Sequence[str], rules: Sequence[str], *, case_sensitive: bool = False
) -> list[dict[str, Any]]:
    """The `redactionRules` of a request: exact texts, then named presets."""
    specs: list[dict[str, Any]] = [
        {"text": text, "caseSensitive": case_sensitive} for text in texts
    ]
    specs.extend({"preset": name} for name in rules)
    return specs


def redact(
    client: Client,
    source: Path,
    dest: Path,
    *,
    texts: Sequence[str] = (),
    rules: Sequence[str] = (),
    case_sensitive: bool = False,
    keep_upload: bool = False,
    watcher: Watcher | None = None,
) -> Redacted:
    """Write `source` with every occurrence of `texts` (and matches of `rules`)
    truly removed to `dest`. The uploaded original is deleted from the service
    afterwards unless `keep_upload` (the redacted result stays)."""
    if not texts and not rules:
        raise ValueError("nothing to redact: give texts or rules")
    watcher = watcher or Silent()
    document_id = upload_readable(client, source, watcher)
    try:
        hits: list[SearchHit] = []
        found: dict[str, int] = {}
        if rules:
            body = request([output([element(document_id)], title=dest.name)])
            body[RULES_FIELD] = rule_specs(texts, rules, case_sensitive=case_sensitive)
            order_id = _post_with_rules(client, body)
        else:
            hits, found = _find(client, document_id, texts, case_sensitive, watcher)
            body = request(
                [output([element(document_id)], title=dest.name)],
                annotations=redact_text(document_id, hits),
            )
            order_id = client.transformations.create(body)
        watcher.note(f"redacting: order {order_id}")
        order = client.transformations.wait_success(order_id, progress=watcher.order)
        assert order.result_id, order.raw
        # Checked on the service before anything is written: a file that still
        # holds a word must not land where the caller expects a redacted one.
        _check_gone(client, order.result_id, texts, case_sensitive)
        size = client.documents.download(order.result_id, dest, format="pdf")
    finally:
        if not keep_upload:
            _forget(client, document_id)
    return Redacted(
        order=order,
        document_id=order.result_id,
        path=dest,
        size=size,
        by_rules=bool(rules),
        found=found,
        pages=tuple(sorted({hit.page_label for hit in hits})),
    )


def _find(
    client: Client,
    document_id: str,
    texts: Sequence[str],
    case_sensitive: bool,
    watcher: Watcher,
) -> tuple[list[SearchHit], dict[str, int]]:
    """Every hit of every text, and how many each text had."""
    hits: list[SearchHit] = []
    counts: dict[str, int] = {}
    for text in texts:
        found = client.documents.search(
            document_id, text, case_sensitive=case_sensitive
        )
        watcher.note(
            f"{text!r}: {len(found)} found"
            + (f" on pages {_pages(found)}" if found else "")
        )
        counts[text] = len(found)
        hits.extend(found)
    return hits, counts


def _pages(hits: Sequence[SearchHit]) -> str:
    return ", ".join(str(p) for p in sorted({hit.page_label for hit in hits}))


def _post_with_rules(client: Client, body: dict[str, Any]) -> str:
    try:
        order_id = client.transformations.create(body)
    except ProblemError as problem:
        if problem.status == 400 and _refuses_the_field(problem):
            raise RulesUnsupported(problem.detail or problem.title) from problem
        raise
    # A server from before rules ignores the unknown field: the order would
    # redact nothing. Its echo of the request tells.
    echoed = client.transformations.get(order_id)
    if RULES_FIELD not in echoed.raw:
        _forget_order(client, order_id)
        raise RulesUnsupported(f"it ignored the {RULES_FIELD!r} field of the order")
    return order_id


def _refuses_the_field(problem: ProblemError) -> bool:
    """The 400 is about the rules field itself (unknown to the server), not about
    one rule in it (`redactionRules[0].preset`: a server that takes rules)."""
    if any(name.startswith(RULES_FIELD + "[") for name in problem.errors):
        return False
    return RULES_FIELD in problem.errors or RULES_FIELD in problem.detail


def _check_gone(
    client: Client, result_id: str, texts: Sequence[str], case_sensitive: bool
) -> None:
    left = {
        text: count
        for text in texts
        if (
            count := len(
                client.documents.search(result_id, text, case_sensitive=case_sensitive)
            )
        )
    }
    if left:
        raise RedactionIncomplete(left)


def _forget(client: Client, document_id: str) -> None:
    try:
        client.documents.delete(document_id)
    except ClientError:
        pass  # a failed clean-up must not hide the outcome


def _forget_order(client: Client, order_id: str) -> None:
    try:
        client.transformations.delete(order_id)
    except ClientError:
        pass
