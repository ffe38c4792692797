"""Fuzz: --requests generated and hostile requests against a live service; goal 0 5xx.

Run: `.venv/bin/python bench/fuzz.py [--requests 10000] [--json FILE]` (starts the
service on DATABASE_URL, else the benchmark's database, as `make bench` does), or
`--base URL` against a service already running.

Requests are drawn by schemathesis from the service's own /openapi.json, valid
and invalid (its positive and negative modes), spread evenly over the operations,
and aimed part of the time at real documents and orders made first (the aiming
of tests/test_schemathesis.py), so the engines run too; the hostile requests of
issue 25 come on top: a NUL and other control characters in ids and paths, JSON
nested 1,000 deep on every JSON endpoint, invalid UTF-8, a truncated PDF.
Unlike the suite's schemathesis test (in process, about 1,000 requests) this goes
through gunicorn and the real workers, and checks only the status: never 5xx.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import hypothesis  # noqa: E402
import requests  # noqa: E402
import schemathesis  # noqa: E402
from hypothesis import HealthCheck, Phase, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402

from tests.schemathesis_support.aiming import PDFS, Seeds, aim  # noqa: E402


class Answer(Protocol):
    """What requests' and schemathesis' responses both have."""

    @property
    def status_code(self) -> int: ...

    @property
    def content(self) -> bytes: ...


OCTET = {"Content-Type": "application/octet-stream"}
JSON_ENDPOINTS = ("/transformations", "/comparisons", "/conversions", "/annotation")


@dataclass
class Tally:
    statuses: dict[int, int] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)  # the first 20
    errors: int = 0  # no answer at all (the connection dropped)

    @property
    def requests(self) -> int:
        return sum(self.statuses.values()) + self.errors

    def record(self, what: str, response: Answer | None) -> None:
        if response is None:
            self.errors += 1
            self._note(f"{what} → no answer")
            return
        code = response.status_code
        self.statuses[code] = self.statuses.get(code, 0) + 1
        if code >= 500:
            body = response.content[:200].decode(errors="replace")
            self._note(f"{what} → {code} {body}")

    def _note(self, what: str) -> None:
        if len(self.server_errors) < 20:
            self.server_errors.append(what[:400])


def seed(base: str) -> Seeds:
    """Two documents, an order and a comparison for the generated ids to aim at."""
    documents = [
        requests.post(base + "/documents", data=pdf, headers=OCTET, timeout=60).json()[
            "id"
        ]
        for pdf in PDFS
    ]
    order = requests.post(
        base + "/transformations",
        json={
            "format": "pdf",
            "transformationDetails": [
                {"transformationElements": [{"documentId": documents[0]}]}
            ],
        },
        timeout=60,
    ).json()["transformationOrderId"]["id"]
    comparison = requests.post(
        base + "/comparisons",
        json={"leftDocumentId": documents[0], "rightDocumentId": documents[1]},
        timeout=60,
    ).json()["comparisonOrderId"]["id"]
    return Seeds(documents, [order], [comparison])


def generated(
    base: str, seeds: Seeds, total: int, tally: Tally, spread: int | None = None
) -> None:
    """`total` requests over the operations of the schema (every one, or `spread`
    of them taken evenly)."""
    schema = schemathesis.openapi.from_url(base + "/openapi.json")
    operations = sorted(
        (result.ok() for result in schema.get_all_operations()),  # type: ignore[union-attr]
        # Deletions last: the seeded documents serve every other operation first.
        key=lambda op: (op.label.startswith("DELETE"), op.label),
    )
    if spread:
        operations = operations[:: max(1, len(operations) // spread)][:spread]
    per_mode = max(1, math.ceil(total / (2 * len(operations))))
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(
                case=operation.as_strategy(generation_mode=mode),
                document=st.sampled_from([*seeds.documents, None]),
                page=st.sampled_from(["0", "1", "2", "-1", None]),
            )
            @hypothesis.settings(
                max_examples=per_mode,
                database=None,
                deadline=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
                verbosity=hypothesis.Verbosity.quiet,  # no seeds of Unsatisfiable
            )
            def one(
                case: schemathesis.Case, document: str | None, page: str | None
            ) -> None:
                aim(case, seeds, document, page)
                try:
                    response = case.call(base_url=base, timeout=60)
                except requests.RequestException:
                    response = None
                what = f"{case.operation.label} {case.formatted_path}"
                tally.record(what, response)

            try:
                one()
            except hypothesis.errors.Unsatisfiable:
                pass  # nothing in this operation can be made schema-invalid


def deep_json(depth: int) -> str:
    return "[" * depth + "]" * depth


def hostile(base: str, seeds: Seeds, tally: Tally) -> None:
    """Issue 25's hostile requests, and their kin."""
    doc = seeds.documents[0]
    paths = [
        "/documents/a%00b",
        "/documents/a%00b/layout",
        f"/documents/{doc}%00/pages/0/image",
        "/documents/%01%02%1f",
        "/documents/%ff%fe",
        "/documents/" + "x" * 5000,
        "/transformations/%00",
        "/comparisons/a%0d%0aSet-Cookie:x",
        f"/documents/{doc}/pages/%00/text",
        f"/documents/{doc}/search?searchText=%00",
        f"/documents/{doc}/pages/0/image?width=%00",
        f"/documents/{doc}/pages/99999999999999999999/image",
        "/annotation?documentId=%00",
    ]
    for path in paths:
        tally.record(f"GET {path[:80]}", _call("GET", base + path))
    for endpoint in JSON_ENDPOINTS:
        bodies: tuple[str | bytes, ...] = (
            deep_json(1000),
            deep_json(100_000),
            '{"a":' * 5000,
            "\x00",
            b'{"format": "\xff\xfe"}',  # invalid UTF-8
        )
        for body in bodies:
            tally.record(
                f"POST {endpoint} hostile JSON ({len(body)} chars)",
                _call(
                    "POST",
                    base + endpoint,
                    data=body,
                    headers={"Content-Type": "application/json"},
                ),
            )
    truncated = PDFS[0][: len(PDFS[0]) // 2]
    for body, headers in (
        (truncated, OCTET),
        (b"%PDF-1.7\n" + b"\x00" * 1000, OCTET),
        (b"", OCTET),
        (PDFS[0], {"Content-Type": "application/pdf; charset=\x01"}),
    ):
        tally.record(
            f"POST /documents hostile upload ({len(body)} bytes)",
            _call("POST", base + "/documents", data=body, headers=headers),
        )


def _call(method: str, url: str, **kwargs: Any) -> requests.Response | None:
    try:
        return requests.request(method, url, timeout=60, **kwargs)
    except requests.RequestException:
        return None


def fuzz(base: str, total: int, spread: int | None = None) -> dict[str, Any]:
    tally = Tally()
    started = time.monotonic()
    seeds = seed(base)
    hostile(base, seeds, tally)
    # Some operations have fewer distinct requests than their share (hypothesis
    # stops early): further passes, with fresh draws, make up the count.
    for _ in range(5):
        missing = total - tally.requests
        if missing <= 0:
            break
        generated(base, seeds, missing, tally, spread)
    bad = sum(n for code, n in tally.statuses.items() if code >= 500) + tally.errors
    return {
        "requests": tally.requests,
        "seconds": round(time.monotonic() - started, 1),
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
        "server_errors": bad,
        "examples": tally.server_errors,
        "met": bad == 0 and tally.requests >= total,
    }


@contextmanager
def own_service(work: Path) -> Iterator[str]:
    """The service as `make bench` starts it, on a fresh database."""
    from bench.service import database_url, prepare_database, running_service
    from transformsvc import paths

    url = database_url()
    data = work / "data"
    prepare_database(url, data, flush=True)
    metrics = paths.metrics_root(data)  # the service's own, left in /dev/shm else
    with running_service(db_url=url, data_dir=data, logs=work / "logs") as service:
        try:
            yield service.base
        finally:
            shutil.rmtree(metrics, ignore_errors=True)


def report(result: dict[str, Any]) -> str:
    lines = [
        f"fuzz: {result['requests']} requests in {result['seconds']} s, "
        f"5xx or no answer: {result['server_errors']} (goal 0): "
        + ("met" if result["met"] else "NOT MET"),
        f"  statuses: {result['statuses']}",
    ]
    lines += [f"  {example}" for example in result["examples"][:10]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--base", help="a running service")
    parser.add_argument(
        "--operations", type=int, help="only this many operations, taken evenly"
    )
    parser.add_argument("--work", type=Path, help="folder for data and logs")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.base:
        result = fuzz(args.base, args.requests, args.operations)
    else:
        work = args.work or Path(tempfile.mkdtemp(prefix="transformsvc-fuzz-"))
        with own_service(work) as base:
            result = fuzz(base, args.requests, args.operations)
    print(report(result))  # noqa: T201
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0 if result["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
