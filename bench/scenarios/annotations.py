"""6. Burn 1,000 annotations (Square, Line, FreeText) over 200 pages vs PyMuPDF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf

from bench.client import PREFIX, element, order_body
from bench.context import Context, page_count
from bench.measure import CLOSE_TO_ENGINE, Row, interleaved, median, order_breakdown

NUMBER = "6"
KINDS = ("SquareElemType", "LineElemType", "FreetextElemType")


def annotations_for(doc_id: str, count: int, pages: int) -> list[dict[str, Any]]:
    """`count` annotations spread evenly over `pages` (0-based), kinds mixed, in
    displayed-page points of an A4 page."""
    out = []
    for n in range(count):
        kind = KINDS[n % 3]
        y = 110.0 + (n // pages) * 140
        colour = {"r": (n * 37) % 256, "g": 80, "b": 160}
        item: dict[str, Any] = {
            "type": PREFIX + kind,
            "documentId": {"id": doc_id},
            "page": n % pages,
            "id": f"a{n}",
            "color": colour,
        }
        if kind == "SquareElemType":
            item.update(
                position={"x": 60, "y": y, "w": 150, "h": 80},
                opacity=0.5,
                interiorColor={"r": 255, "g": 230, "b": 120},
                width=1,
            )
        elif kind == "LineElemType":
            item.update(
                start={"x": 230, "y": y},
                end={"x": 380, "y": y + 80},
                width=2,
                head="OPEN_ARROW",
                tail="NONE",
            )
        else:
            item.update(
                position={"x": 400, "y": y, "w": 150, "h": 60},
                opacity=1.0,
                contents=f"Reviewer note {n}: check this paragraph again.",
            )
        out.append(item)
    return out


def burn_with_pymupdf(src: Path, dest: Path, annotations: list[dict[str, Any]]) -> None:
    """The same annotations drawn and baked into the content by PyMuPDF directly
    (the pages are unrotated A4: displayed points are PyMuPDF's page points)."""
    with pymupdf.open(src) as doc:
        for item in annotations:
            page = doc[item["page"]]
            colour = tuple(item["color"][c] / 255 for c in "rgb")
            kind = item["type"].rsplit(".", 1)[-1]
            if kind == "SquareElemType":
                box = item["position"]
                annot = page.add_rect_annot(
                    pymupdf.Rect(
                        box["x"], box["y"], box["x"] + box["w"], box["y"] + box["h"]
                    )
                )
                fill = tuple(item["interiorColor"][c] / 255 for c in "rgb")
                annot.set_colors(stroke=colour, fill=fill)
                annot.set_opacity(item["opacity"])
                annot.update()
            elif kind == "LineElemType":
                annot = page.add_line_annot(
                    (item["start"]["x"], item["start"]["y"]),
                    (item["end"]["x"], item["end"]["y"]),
                )
                annot.set_line_ends(
                    pymupdf.PDF_ANNOT_LE_NONE, pymupdf.PDF_ANNOT_LE_OPEN_ARROW
                )
                annot.set_colors(stroke=colour, fill=colour)
                annot.set_border(width=item["width"])
                annot.update()
            else:
                box = item["position"]
                page.add_freetext_annot(
                    pymupdf.Rect(
                        box["x"], box["y"], box["x"] + box["w"], box["y"] + box["h"]
                    ),
                    item["contents"],
                    fontsize=11,
                    text_color=colour,
                )
        doc.bake(annots=True, widgets=False)
        doc.save(str(dest), garbage=3, deflate=True)


def run(ctx: Context) -> list[Row]:
    count, pages = (30, 10) if ctx.smoke else (1000, 200)
    path = ctx.inputs.report(pages)
    doc_id = ctx.upload_once(path)
    annotations = annotations_for(doc_id, count, pages)
    body = order_body([element(doc_id)], annotations=annotations)
    ours, theirs = ctx.out("annotate-service.pdf"), ctx.out("annotate-pymupdf.pdf")

    orders: list[dict[str, Any]] = []
    service_s, baseline_s = interleaved(
        lambda: orders.append(ctx.client.run_order(body, ours)),
        lambda: burn_with_pymupdf(path, theirs, annotations),
        ctx.runs,
        warmup=ctx.warmup,
    )
    assert page_count(ours) == pages
    return [
        Row(
            NUMBER,
            f"burn {count} annotations over {pages} pages",
            "s",
            median(service_s),
            median(baseline_s),
            CLOSE_TO_ENGINE,
            ctx.runs,
            baseline_label="PyMuPDF add_*_annot + bake + save in-process",
            notes={
                "order": order_breakdown(orders[-ctx.runs :]),
                "service_bytes": ours.stat().st_size,
                "baseline_bytes": theirs.stat().st_size,
            },
        )
    ]
