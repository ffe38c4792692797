"""The table of operations: parsing, refusals naming the field, order of phases,
the texts an operation writes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest

from engines.errors import InvalidOperation
from engines.pdf.ops import (
    OPERATIONS,
    Phase,
    apply_operations,
    parse_operations,
    split,
    stamp_texts,
)

# One example body per operation (as proposed for the README and OpenAPI).
EXAMPLES: dict[str, dict[str, Any]] = {
    "stamp": {
        "type": "stamp",
        "text": "CONFIDENTIAL",
        "font": "helvetica-bold",
        "fontSize": 48,
        "color": {"r": 200, "g": 0, "b": 0},
        "opacity": 0.3,
        "rotation": 45,
        "position": "center",
        "offset": {"x": 0, "y": 0},
        "searchable": True,
        "pages": [{"minPage": 1, "maxPage": 3}],
    },
    "pageNumbers": {
        "type": "pageNumbers",
        "prefix": "Page ",
        "suffix": " of {total}",
        "start": 1,
        "position": "bottom",
        "fontSize": 9,
    },
    "bates": {
        "type": "bates",
        "prefix": "ACME-",
        "digits": 6,
        "start": 1,
        "position": "bottomRight",
        "font": "courier",
        "fontSize": 10,
    },
    "rotate": {"type": "rotate", "angle": 90, "pages": [{"minPage": 2, "maxPage": 2}]},
    "crop": {"type": "crop", "box": {"x": 36, "y": 36, "w": 523, "h": 770}},
    "fillForm": {
        "type": "fillForm",
        "values": {"applicant.name": "Jane Doe", "agree": True, "country": "France"},
        "flatten": True,
    },
    "flatten": {"type": "flatten", "forms": True, "annotations": True},
    "metadata": {
        "type": "metadata",
        "title": "Production 7",
        "author": "Records",
        "subject": "Case 12-345",
        "keywords": ["discovery", "2026"],
    },
    "sanitize": {
        "type": "sanitize",
        "metadata": True,
        "javascript": True,
        "embeddedFiles": True,
        "externalLinks": True,
    },
    "outline": {
        "type": "outline",
        "bookmarks": [
            {"title": "Exhibit A", "page": 1},
            {"title": "Exhibit A.1", "page": 3, "level": 2},
        ],
    },
    "optimize": {
        "type": "optimize",
        "imageDpi": 150,
        "jpegQuality": 75,
        "objectStreams": True,
        "mergeDuplicates": True,
        "linearize": True,
    },
    "encrypt": {
        "type": "encrypt",
        "userPassword": "open-me",
        "ownerPassword": "admin-only",
        "permissions": ["print", "copy"],
    },
}


def test_every_operation_has_an_example_that_parses() -> None:
    assert EXAMPLES.keys() == OPERATIONS.keys()
    ops = parse_operations(list(EXAMPLES.values()))
    assert {op.name for op in ops} == set(OPERATIONS)


def test_operations_run_by_phase_sanitize_then_metadata_encrypt_last() -> None:
    given = [
        EXAMPLES[n]
        for n in (
            "encrypt",
            "metadata",
            "sanitize",
            "rotate",
            "bates",
            "stamp",
            "fillForm",
        )
    ]
    ops = parse_operations(given)
    assert [op.name for op in ops] == [
        "fillForm",
        "bates",
        "stamp",
        "rotate",
        "sanitize",
        "metadata",
        "encrypt",
    ]
    assert ops[0].path == "operations[6]"  # paths stay those the client wrote
    before, after = split(ops)
    assert [op.name for op in before] == ["fillForm", "bates", "stamp"]
    assert OPERATIONS["encrypt"].phase == max(Phase)


@pytest.mark.parametrize(
    ("ops", "field", "problem"),
    [
        ([{"type": "shred"}], "x[0].type", "must be one of"),
        (
            [{"type": "stamp", "text": "A", "opacity": 1.5}],
            "x[0].opacity",
            "must be between 0 and 1",
        ),
        (
            [{"type": "stamp", "text": "A", "colour": {}}],
            "x[0].colour",
            "unknown field",
        ),
        ([{"type": "stamp"}], "x[0].text", "give either text or image"),
        (
            [{"type": "stamp", "text": "A", "color": {"r": 1, "g": 2}}],
            "x[0].color.b",
            "is required",
        ),
        (
            [{"type": "stamp", "text": "A", "position": "middle"}],
            "x[0].position",
            "must be one of",
        ),
        ([{"type": "rotate", "angle": 45}], "x[0].angle", "must be 90, 180 or 270"),
        (
            [{"type": "rotate", "angle": 90, "pages": [{"minPage": 3, "maxPage": 2}]}],
            "x[0].pages[0].maxPage",
            "must not be less than minPage",
        ),
        ([{"type": "encrypt"}], "x[0].userPassword", "give userPassword"),
        (
            [{"type": "encrypt", "userPassword": "a", "permissions": ["fly"]}],
            "x[0].permissions",
            "must be a list of",
        ),
        ([{"type": "bates"}, {"type": "bates"}], "x[1].type", "may be given once"),
        (
            [{"type": "outline", "bookmarks": [{"title": "A", "page": 1, "level": 2}]}],
            "x[0].bookmarks[0].level",
            "must be between 1 and 1",
        ),
        ([{"type": "metadata"}], "x[0].title", "give at least one"),
        ("stamp", "x", "must be a list"),
    ],
)
def test_refusals_name_the_field(ops: Any, field: str, problem: str) -> None:
    with pytest.raises(InvalidOperation) as caught:
        parse_operations(ops, "x")
    assert caught.value.field == field
    assert problem in caught.value.problem
    assert str(caught.value) == f"{field}: {caught.value.problem}"


def test_pages_beyond_the_output_are_refused_when_applied(tmp_path: Path) -> None:
    src = tmp_path / "in.pdf"
    doc = pymupdf.open()
    doc.new_page()
    doc.save(src)
    ops = parse_operations([EXAMPLES["stamp"]], "transformationDetails[1].operations")
    with pytest.raises(InvalidOperation) as caught:
        apply_operations(str(src), str(tmp_path / "out.pdf"), ops)
    assert (
        caught.value.field == "transformationDetails[1].operations[0].pages[0].maxPage"
    )
    assert "beyond the output's 1 pages" in caught.value.problem


def test_stamp_texts_lists_what_each_operation_writes() -> None:
    texts = {
        op.name: stamp_texts(op) for op in parse_operations(list(EXAMPLES.values()))
    }
    assert texts["stamp"] == ("CONFIDENTIAL",)
    assert texts["pageNumbers"] == ("Page ", " of {total}")
    assert texts["bates"] == ("ACME-",)
    assert texts["fillForm"] == ("Jane Doe", "France")
    assert texts["metadata"] == (
        "Production 7",
        "Records",
        "Case 12-345",
        "discovery, 2026",
    )
    assert texts["outline"] == ("Exhibit A", "Exhibit A.1")
    assert texts["rotate"] == texts["encrypt"] == texts["optimize"] == ()


def test_passwords_stay_out_of_reprs() -> None:
    (op,) = parse_operations([EXAMPLES["encrypt"]])
    assert "open-me" not in repr(op) and "admin-only" not in repr(op)
