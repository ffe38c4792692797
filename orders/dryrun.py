"""A dry run: what an order's redaction rules would redact, answered at once,
nothing produced. The reviewer accepts matches by id (`acceptedMatches`); the
real order finds the same matches and redacts the accepted ones.

Pages count from 0 of each source document; boxes are displayed space.
"""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

from documents.storage import pdf_path
from engines.rules import OutOfTime, RuleError
from orders.matching import matches_of, text_hmac
from orders.rules import match_wire
from orders.services import check_documents
from orders.specs import OrderSpec, pages_read
from transformsvc.problems import FieldErrors

# Pages a dry run reads while the client waits (text extraction is a few
# milliseconds a page; more is an order's work).
MAX_PAGES = 2000
# Seconds a dry run may search while its client waits (each rule also has the
# search's limit on each text): past it, the client narrows the request or
# sends the order, which runs in the background.
MAX_SECONDS = 60.0


def dry_run(*, spec: OrderSpec, owner_id: int | None, clear: bool) -> dict[str, Any]:
    """The matches of `spec`'s rules on the pages it takes, with their ids;
    the matched text itself when `clear`, else its keyed hash."""
    errors = FieldErrors()
    if not spec.redaction_rules:
        errors.add(
            "redactionRules",
            "a dry run needs redaction rules: it answers their matches",
            "invalid_request",
        )
        errors.raise_any()
    docs = check_documents(spec, owner_id)
    pages = pages_read(spec, {key: doc.page_count or 0 for key, doc in docs.items()})
    if sum(len(p) for p in pages.values()) > MAX_PAGES:
        errors.add(
            "transformationDetails",
            f"a dry run reads at most {MAX_PAGES} pages; split the order",
            "over_limit",
        )
        errors.raise_any()
    rules = spec.redaction_rules
    with ExitStack() as stack:
        paths = {key: stack.enter_context(pdf_path(doc)) for key, doc in docs.items()}
        try:
            found = matches_of(spec, paths, pages, time.monotonic() + MAX_SECONDS)
        except OutOfTime as exc:
            errors.add(
                "redactionRules",
                f"a dry run searches for at most {MAX_SECONDS:g} s and {exc}; "
                "choose fewer pages or rules, or send the order",
                exc.code,
            )
            errors.raise_any()
            raise
        except RuleError as exc:
            # A pattern slow on these pages: the client fixes that rule.
            errors.add(
                f"redactionRules[{exc.rule}].{rules[exc.rule].kind}",
                exc.reason,
                exc.code,
            )
            errors.raise_any()
            raise
    matches = [
        match_wire(
            key,
            match,
            rules[match.rule],
            match.text if clear else None,
            None if clear else text_hmac(match.text),
        )
        for key, found_in in found.items()
        for match in found_in
    ]
    return {
        "dryRun": True,
        "rules": [
            {
                "rule": n,
                "ruleName": rule.label,
                "matches": sum(1 for m in matches if m["rule"] == n),
            }
            for n, rule in enumerate(rules)
        ],
        "count": len(matches),
        "matches": matches,
    }
