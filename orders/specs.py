"""A transformation request as typed values: what services, the worker and the
engine take. The serializer builds them at the edge (`orders.wire`); the order
stores the spec as JSON (`jobs.specs`) beside the request it echoes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.pdf.ops import OPERATIONS, Op
from engines.pdf.types import Annotation, PageRange
from engines.rules import Rule
from jobs.secrets import seal, unseal
from jobs.specs import from_json, to_json


@dataclass(frozen=True, slots=True)
class ElementSpec:
    """A source of an output: a document, the page ranges taken from it (1-based,
    inclusive, in order; None = the whole document), its title inside a zip."""

    document_id: str
    ranges: tuple[PageRange, ...] | None = None
    title: str | None = None


@dataclass(frozen=True, slots=True)
class OperationSpec:
    """One operation applied to an output (engines/pdf/ops): its table name,
    where the client wrote it (for errors found later), its typed spec. Kept as
    JSON with the order; passwords sealed (jobs.secrets)."""

    name: str
    path: str
    spec: Any

    def op(self) -> Op:
        return Op(self.name, self.spec, self.path)

    def to_spec_json(self) -> dict[str, Any]:
        data = to_json(self.spec)
        for secret in SECRET_FIELDS.get(self.name, ()):
            if data.get(secret):
                data[secret] = seal(data[secret])
        return {"name": self.name, "path": self.path, "spec": data}

    @classmethod
    def from_spec_json(cls, data: dict[str, Any]) -> OperationSpec:
        fields = dict(data["spec"])
        for secret in SECRET_FIELDS.get(data["name"], ()):
            if fields.get(secret):
                fields[secret] = unseal(fields[secret])
        spec: Any = from_json(OPERATIONS[data["name"]].spec, fields)
        return cls(data["name"], data["path"], spec)


# The fields of an operation's spec that hold secrets (never echoed, sealed).
SECRET_FIELDS = {"encrypt": ("user_password", "owner_password")}


@dataclass(frozen=True, slots=True)
class OutputSpec:
    """One output document (a `transformationDetails` entry), with the
    operations applied to it (the order's and its own, in the order they run)."""

    elements: tuple[ElementSpec, ...]
    title: str | None = None
    operations: tuple[OperationSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class OrderSpec:
    """`format` is pdf, pdf-fdf or zip; annotation pages count from 0 and refer to
    pages of their source document."""

    format: str
    outputs: tuple[OutputSpec, ...]
    annotations: tuple[Annotation, ...] = ()
    keep_attachments: bool = False
    # Redaction by what, not where (engines.rules): every match on the pages
    # the order takes, in their fields, annotations and metadata, is redacted;
    # only the matches named in `accepted_matches` (ids of a dry run) when set.
    redaction_rules: tuple[Rule, ...] = ()
    accepted_matches: tuple[str, ...] | None = None

    @property
    def document_ids(self) -> frozenset[str]:
        return frozenset(
            element.document_id
            for output in self.outputs
            for element in output.elements
        )

    @property
    def image_ids(self) -> frozenset[str]:
        """Documents whose pictures stamp operations draw."""
        return frozenset(
            op.spec.image
            for output in self.outputs
            for op in output.operations
            if op.name == "stamp" and op.spec.image
        )

    @property
    def operation_names(self) -> tuple[str, ...]:
        """Every kind of operation some output applies, in table order."""
        used = {op.name for output in self.outputs for op in output.operations}
        return tuple(name for name in OPERATIONS if name in used)


# Annotation kinds that redact (simple names, as `Annotation.kind` holds them).
REDACTION_KINDS = frozenset({"RedactElemType", "RedactTextElemType"})


def operations_of(spec: OrderSpec) -> dict[str, Any]:
    """What an order does, as the order's flag columns: redacts, annotates (other
    annotations), merges (an output takes pages of two documents or more), and
    its number of outputs. Zip is its format."""
    return {
        "redacts": bool(spec.redaction_rules)
        or any(a.kind in REDACTION_KINDS for a in spec.annotations),
        "annotates": any(a.kind not in REDACTION_KINDS for a in spec.annotations),
        "merges": any(
            len({element.document_id for element in output.elements}) > 1
            for output in spec.outputs
        ),
        "output_count": len(spec.outputs),
        "operations": ",".join(spec.operation_names),
    }


def pages_read(spec: OrderSpec, page_counts: dict[str, int]) -> dict[str, list[int]]:
    """The 0-based pages each document gives the order's outputs, in order:
    where its redaction rules are looked for."""
    pages: dict[str, set[int]] = {}
    for output in spec.outputs:
        for element in output.elements:
            taken = pages.setdefault(element.document_id, set())
            count = page_counts.get(element.document_id, 0)
            if element.ranges is None:
                taken.update(range(count))
                continue
            for selection in element.ranges:
                taken.update(range(selection.first - 1, min(selection.last, count)))
    return {key: sorted(found) for key, found in pages.items()}


def pages_taken(element: ElementSpec, page_count: int | None) -> int | None:
    """Pages an element takes from its document (all of them without ranges)."""
    if element.ranges is None:
        return page_count
    return sum(r.last - r.first + 1 for r in element.ranges)
