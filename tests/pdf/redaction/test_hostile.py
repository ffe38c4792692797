"""Hostile PDFs redacted through both flows and both modes, judged independently.

Flows as a client runs them: "search" finds the secret with the engine's search
and redacts the returned positions (RedactTextElemType coords); "zone" redacts a
box drawn over the word as the page shows it (RedactElemType). Modes: "burn"
(format=pdf) and "live" (pdf-fdf). The secret must be gone for every judge
(pdftotext, mutool, qpdf's QDF, a pikepdf walk, the raw bytes, the engine's
search) while at least 90 % of the page's other words stay.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pymupdf
import pytest

from engines.pdf.annotate import apply_annotations
from engines.pdf.text import clear_cache, search_page
from engines.pdf.types import Annotation, AnnotationReport, Placement, SearchQuery
from tests.pdf.redaction import judges
from tests.pdf.redaction.corpus import BUILDERS, Case

FLOWS = ("search", "zone")
MODES = ("burn", "live")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Case]]:
    folder = tmp_path_factory.mktemp("hostile")
    yield {name: build(folder / f"{name}.pdf") for name, build in BUILDERS.items()}


def placements(case: Case, flow: str) -> list[Placement]:
    if flow == "search":
        clear_cache()
        hits = search_page(str(case.path), case.page, SearchQuery(case.secret))
        assert hits, "the engine's search must find the word the page shows"
        annotations = [
            Annotation(
                kind="RedactTextElemType",
                document_key="doc",
                page=case.page,
                annotation_id="found",
                coords=tuple(hit.position for hit in hits),
            )
        ]
    else:
        annotations = [
            Annotation(
                kind="RedactElemType",
                document_key="doc",
                page=case.page,
                annotation_id=f"zone-{n}",
                position=zone,
            )
            for n, zone in enumerate(case.zones)
        ]
    return [Placement(case.page, annotation) for annotation in annotations]


def redact(case: Case, flow: str, mode: str) -> tuple[Path, AnnotationReport]:
    out = case.path.with_name(f"{case.name}-{flow}-{mode}.pdf")
    report = apply_annotations(
        str(case.path),
        str(out),
        placements(case, flow),
        mode=mode,  # type: ignore[arg-type]
    )
    return out, report


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("flow", FLOWS)
@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_the_secret_is_gone_for_every_judge_and_the_page_stays_readable(
    built: dict[str, Case], name: str, flow: str, mode: str
) -> None:
    case = built[name]
    scope = case.page if case.scope == "page" else None
    assert judges.findings(case.path, case.secret, scope)  # there before
    out, report = redact(case, flow, mode)
    assert judges.findings(out, case.secret, scope) == []
    assert judges.surviving_share(out, case.page, case.others) >= 0.9
    assert report.redaction_verified is True
    assert case.secret in report.removed_words


@pytest.mark.parametrize("flow", FLOWS)
def test_a_note_in_the_area_goes_with_its_popup_and_reply_and_others_keep_theirs(
    built: dict[str, Case], flow: str
) -> None:
    out, _ = redact(built["note_with_reply"], flow, "live")
    with pikepdf.open(out) as pdf:
        annots = list(pdf.pages[0].get("/Annots", []))
        contents = {str(a.Contents): a for a in annots if "/Contents" in a}
        assert set(contents) == {"general remark", "reply kept"}
        assert contents["reply kept"].IRT.objgen == contents["general remark"].objgen
        assert not [a for a in annots if a.Subtype == "/Popup"]


def test_annotations_of_unknown_kinds_over_the_area_are_not_burnt_over_the_fill(
    built: dict[str, Case],
) -> None:
    case = built["unknown_annotations"]
    out, _ = redact(case, "zone", "burn")
    zone = case.zones[0]
    with pymupdf.open(out) as document:
        inside = (zone.x + 1, zone.y + 1, zone.x + zone.w - 1, zone.y + zone.h - 1)
        pixels = document[0].get_pixmap(dpi=144, clip=inside)
    assert set(pixels.samples) == {0}  # all black: nothing drawn on the fill


@pytest.mark.parametrize("mode", MODES)
def test_hidden_layers_stay_hidden_after_redaction(
    built: dict[str, Case], mode: str
) -> None:
    case = built["optional_content"]
    assert "hiddenword" not in judges.mutool_text(case.path)
    out, _ = redact(case, "zone", mode)
    assert "hiddenword" not in judges.pdftotext(out)
    assert "hiddenword" not in judges.mutool_text(out)
    with pikepdf.open(out) as pdf:
        assert [str(layer.Name) for layer in pdf.Root.OCProperties.D.OFF] == ["Draft"]


def test_a_pattern_shared_with_another_page_keeps_its_text_there(
    tmp_path: Path,
) -> None:
    # Copy on write: page 2 paints with the same tiling pattern as page 1.
    from tests.pdf.redaction.build_drawing import tiling_pattern

    case = tiling_pattern(tmp_path / "pattern.pdf")
    with pikepdf.open(case.path, allow_overwriting_input=True) as pdf:
        pdf.pages.append(pdf.pages[0])  # a second page object, same pattern
        assert pdf.pages[0].Resources.Pattern.P1.objgen == (
            pdf.pages[1].Resources.Pattern.P1.objgen
        )
        pdf.save(case.path)
    out, _ = redact(case, "zone", "live")
    with pikepdf.open(out) as pdf:
        patterns = [page.Resources.Pattern.P1 for page in pdf.pages]
        texts = [b"Tj" in p.read_bytes() for p in patterns]
    assert texts == [False, True]


def test_a_link_to_a_renamed_destination_still_leads_to_its_page(
    built: dict[str, Case],
) -> None:
    out, _ = redact(built["strings_everywhere"], "zone", "live")
    with pikepdf.open(out) as pdf:
        names = list(pdf.Root.Names.Dests.Names)
        dests = dict(zip([str(n) for n in names[::2]], names[1::2], strict=True))
        [link] = [a for a in pdf.pages[0].Annots if a.get("/Dest") is not None]
        assert "acme" not in str(link.Dest).lower()
        assert dests[str(link.Dest)][0].objgen == pdf.pages[0].obj.objgen
