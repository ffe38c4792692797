"""Typed specs survive their trip through JSON exactly."""

from __future__ import annotations

import json

from engines.pdf.types import Annotation, Box, PageRange, Point, Rgb
from jobs.specs import from_json, to_json
from orders.specs import ElementSpec, OrderSpec, OutputSpec


def test_an_order_spec_reads_back_equal_after_json() -> None:
    spec = OrderSpec(
        format="pdf-fdf",
        outputs=(
            OutputSpec(
                elements=(
                    ElementSpec("a", (PageRange(1, 3), PageRange(7, 7)), "first"),
                    ElementSpec("b"),
                ),
                title="out",
            ),
        ),
        annotations=(
            Annotation(
                kind="RedactTextElemType",
                document_key="a",
                page=2,
                coords=(Box(1, 2.5, 3, 4),),
                color=Rgb(1, 2, 3),
                opacity=0.5,
                start=Point(1.0, 2.0),
                contents="why",
            ),
        ),
    )
    stored = json.loads(json.dumps(to_json(spec)))
    assert stored["outputs"][0]["elements"][0]["ranges"] == [
        {"first": 1, "last": 3},
        {"first": 7, "last": 7},
    ]
    assert from_json(OrderSpec, stored) == spec
