"""The PyMuPDF patches: applied where they fit, harmless, and refused elsewhere."""

from __future__ import annotations

import pymupdf
import pytest

from engines.pdf import pymupdf_patches

_LOOP = "update_timing_test"


def _note_appearance() -> bytes:
    document = pymupdf.open()
    page = document.new_page()
    annot = page.add_freetext_annot(pymupdf.Rect(50, 50, 250, 100), "some words")
    annot.update()
    kind, ref = document.xref_get_key(annot.xref, "AP/N")
    assert kind == "xref"
    return document.xref_stream(int(ref.split()[0]))


@pytest.mark.skipif(
    not (1, 23, 0) <= tuple(pymupdf.pymupdf_version_tuple)[:3] <= (1, 28, 2),
    reason="only these PyMuPDF versions carry the timing loop",
)
def test_timing_loop_is_skipped_and_appearances_do_not_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert pymupdf_patches.skip_timing_loop()
    assert pymupdf.Annot.update_timing_test() == 0
    patched = _note_appearance()
    original = pymupdf_patches.replaced[_LOOP]
    monkeypatch.setattr(pymupdf.Annot, _LOOP, original)
    assert pymupdf.Annot.update_timing_test() == sum(range(30000))
    assert _note_appearance() == patched


def test_a_method_that_is_not_the_timing_loop_is_left_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def not_the_loop(annot: object) -> int:
        return len(str(annot))

    stranger = staticmethod(not_the_loop)
    monkeypatch.setattr(pymupdf.Annot, _LOOP, stranger)
    assert not pymupdf_patches.skip_timing_loop()
    assert pymupdf.Annot.__dict__[_LOOP] is stranger
