"""What every answer of the schemathesis run must satisfy, and the record of a run."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

# What every answer must satisfy. The semantic checks of schemathesis (a schema-valid
# request must succeed, an invalid one must fail) are left out: an unknown id in a valid
# request is a legitimate 400/404 here.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@dataclass
class Run:
    """Requests made and distinct failures found, keyed by (operation, failure title)."""

    requests: Counter[str] = field(default_factory=Counter)
    answers: Counter[tuple[str, int]] = field(default_factory=Counter)
    failures: dict[tuple[str, str], str] = field(default_factory=dict)

    def record(self, case: schemathesis.Case, response: Any) -> None:
        self.requests[case.operation.label] += 1
        self.answers[(case.operation.label, response.status_code)] += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            for failure in group.exceptions:
                self._add(case, failure)
        except Failure as failure:
            self._add(case, failure)

    def _add(self, case: schemathesis.Case, failure: Failure) -> None:
        key = (case.operation.label, failure.title)
        if key not in self.failures:
            text = f"{failure.message}\n    {case.as_curl_command()}"
            self.failures[key] = text[:1500]

    def report(self) -> str:
        return "\n".join(
            f"- {op}: {title}\n    {text}"
            for (op, title), text in sorted(self.failures.items())
        )
