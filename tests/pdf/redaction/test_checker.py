"""The check of a written output (`engines.verify`), and proof that it does
not share the redaction's blind spots: each test breaks one part of the
scrubber on purpose and the check must refuse the output.

Messages name the page, the area or the object, never the word nor a path.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pikepdf
import pymupdf
import pytest

from engines import verify
from engines.errors import EngineError, RedactionLeak
from engines.pdf.redact import rebuild
from tests.pdf.redaction.cases import Case
from tests.pdf.redaction.corpus import BUILDERS as ROUND_ONE
from tests.pdf.redaction.corpus_two import BUILDERS as ROUND_TWO
from tests.pdf.redaction.test_hostile import redact

WORD = verify.Run("Quokka")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Case]]:
    folder = tmp_path_factory.mktemp("checker")
    wanted = {
        "strings_everywhere": ROUND_ONE["strings_everywhere"],
        "mesh_shading": ROUND_TWO["mesh_shading"],
        "soft_mask_image": ROUND_TWO["soft_mask_image"],
        "pattern_image": ROUND_TWO["pattern_image"],
        "jpeg_metadata": ROUND_TWO["jpeg_metadata"],
        "resource_and_font_names": ROUND_TWO["resource_and_font_names"],
        "stamp_nested_form": ROUND_TWO["stamp_nested_form"],
        "script_in_chained_action": ROUND_TWO["script_in_chained_action"],
    }
    yield {name: build(folder / f"{name}.pdf") for name, build in wanted.items()}


def _page_with(path: Path, lines: list[str]) -> pymupdf.Rect | None:
    document = pymupdf.open()
    page = document.new_page(width=400, height=300)
    for number, line in enumerate(lines):
        page.insert_text((40, 60 + 30 * number), line, fontsize=12)
    found = page.search_for("Quokka")
    document.save(path)
    return found[0] if found else None


def _area(rect: pymupdf.Rect) -> verify.Area:
    return verify.Area(rect.x0, rect.y0, rect.width, rect.height)


def _message(path: Path, areas: dict[int, list[verify.Area]]) -> str:
    with pytest.raises(RedactionLeak) as caught:
        verify.verify(str(path), [WORD], areas)
    assert isinstance(caught.value, EngineError)
    message = str(caught.value)
    assert "quokka" not in message.lower()
    assert str(path.parent) not in message
    return message


def test_a_glyph_left_under_an_area_is_a_leak_there(tmp_path: Path) -> None:
    path = tmp_path / "left.pdf"
    box = _page_with(path, ["alpha Quokka omega"])
    assert box is not None
    assert "page 1, under area 1" in _message(path, {0: [_area(box)]})


def test_the_word_in_a_pdfdoc_or_utf16le_string_is_a_leak(tmp_path: Path) -> None:
    path = tmp_path / "info.pdf"
    _page_with(path, ["alpha beta", "gamma"])
    for value in (
        b"\xfe\xff" + "the Quokka".encode("utf-16-be"),
        b"\xff\xfe" + "the Quokka".encode("utf-16-le"),
        b"%51uokka",  # percent-encoded
        b"&#81;uokka",  # a character reference
        b"=?utf-8?B?UXVva2th?=",  # an encoded word
    ):
        with pikepdf.open(path, allow_overwriting_input=True) as pdf:
            pdf.trailer.Info = pdf.make_indirect(
                pikepdf.Dictionary(Subject=pikepdf.String(value))
            )
            pdf.save(path)
        assert "a key" not in _message(path, {})


def test_the_word_shown_outside_the_areas_may_stay(tmp_path: Path) -> None:
    path = tmp_path / "twice.pdf"
    box = _page_with(path, ["alpha beta omega", "Quokka stays here"])
    assert box is not None
    away = pymupdf.Rect(box.x0 + 200, box.y0, box.x1 + 200, box.y1)
    verify.verify(str(path), [WORD], {0: [_area(away)]})


def test_the_word_as_a_name_in_a_content_stream_is_a_leak(tmp_path: Path) -> None:
    # A marked-content tag and a property name, each used more than once.
    path = tmp_path / "tagged.pdf"
    _page_with(path, ["alpha beta", "gamma"])
    for tag in (b"/Quokka", b"/Qu#6Fkka"):
        with pikepdf.open(path) as pdf:
            page = pdf.pages[0]
            page.contents_add(
                pdf.make_stream(
                    tag + b" BMC EMC " + tag + b" BMC EMC /Span " + tag + b" BDC EMC"
                )
            )
            out = tmp_path / "named.pdf"
            pdf.save(out)
        assert "page 1, content streams" in _message(out, {})


def test_names_of_the_format_are_not_the_removed_word(tmp_path: Path) -> None:
    path = tmp_path / "first.pdf"
    _page_with(path, ["First Last Page Font Quokka"])
    verify.verify(str(path), [verify.Run(w) for w in ("First", "Last", "Page")], {})


SWEEP = sys.modules["engines.pdf.redact.sweep"]  # the package re-exports its function
UNDERNEATH = sys.modules["engines.pdf.redact.underneath"]
BREAKS = [
    # (what is broken, where, the document that needs it)
    ("strings", (rebuild.Cleaner, "_string"), "strings_everywhere"),
    ("names", (rebuild.Cleaner, "name"), "resource_and_font_names"),
    ("shadings and masks", (SWEEP, "clear_underneath"), "mesh_shading"),
    ("soft-mask images", (SWEEP, "clear_underneath"), "soft_mask_image"),
    ("pattern images", (UNDERNEATH._Walker, "_pattern_fill"), "pattern_image"),
    ("JPEG metadata", (rebuild, "strip_jpeg_metadata"), "jpeg_metadata"),
    ("the allowlist", (rebuild.Cleaner, "_entries"), "script_in_chained_action"),
]


def _skip(*args: object, **kwargs: object) -> object:
    """A broken scrubber step: does nothing, or keeps what it is given."""
    if len(args) >= 2 and isinstance(args[1], pikepdf.Name):
        return args[1]
    if len(args) == 2 and isinstance(args[0], str):
        return args[0]
    return None


@pytest.mark.parametrize(("broken", "target", "name"), BREAKS)
def test_the_check_catches_a_scrubber_broken_on_purpose(
    built: dict[str, Case],
    monkeypatch: pytest.MonkeyPatch,
    broken: str,
    target: tuple[object, str],
    name: str,
) -> None:
    case = built[name]
    redact(case, "zone", "live")  # the intact scrubber passes the check
    holder, attribute = target
    monkeypatch.setattr(holder, attribute, _skip)
    with pytest.raises(RedactionLeak):
        redact(case, "zone", "live")
