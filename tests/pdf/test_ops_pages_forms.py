"""Rotate, crop, fill and flatten, read back by poppler and pikepdf."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pymupdf
import pytest

from engines.errors import InvalidOperation
from engines.pdf.ops import apply_operations, parse_operations
from tests import corpus
from tests.pdf.ops_readers import count_pixels, render, rotations, words


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pages_forms")


@pytest.fixture(scope="module")
def three_pages(folder: Path) -> Path:
    doc = pymupdf.open()
    for n in range(3):
        page = doc.new_page(width=595, height=842)
        page.insert_text((150, 250), f"Marker{n + 1}", fontsize=12)
    doc[2].set_rotation(90)
    path = folder / "three.pdf"
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def form(folder: Path) -> Path:
    """A text field, a checkbox, a combo box and a multiple-choice list box."""
    doc = pymupdf.open()
    page = doc.new_page()
    for kind, name, rect, extra in (
        (pymupdf.PDF_WIDGET_TYPE_TEXT, "person.name", (72, 72, 300, 92), {}),
        (pymupdf.PDF_WIDGET_TYPE_CHECKBOX, "agree", (72, 120, 90, 138), {}),
        (
            pymupdf.PDF_WIDGET_TYPE_COMBOBOX,
            "country",
            (72, 160, 300, 180),
            {"choice_values": ["France", "Spain"]},
        ),
        (
            pymupdf.PDF_WIDGET_TYPE_LISTBOX,
            "langs",
            (72, 200, 300, 260),
            {
                "choice_values": ["en", "fr", "es"],
                "field_flags": pymupdf.PDF_CH_FIELD_IS_MULTI_SELECT,
            },
        ),
    ):
        widget = pymupdf.Widget()
        widget.field_type, widget.field_name, widget.rect = (
            kind,
            name,
            pymupdf.Rect(rect),
        )
        widget.text_fontsize = 12
        for key, value in extra.items():
            setattr(widget, key, value)
        page.add_widget(widget)
    path = folder / "form.pdf"
    doc.save(path)
    return path


def run(src: Path, dest: Path, ops: list[dict]) -> object:
    return apply_operations(str(src), str(dest), parse_operations(ops))


def test_rotate_turns_the_chosen_pages_by_quarter_turns(
    three_pages: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    run(
        three_pages,
        out,
        [
            {"type": "rotate", "angle": 90, "pages": [{"minPage": 1, "maxPage": 2}]},
            {"type": "rotate", "angle": -90, "pages": [{"minPage": 2, "maxPage": 3}]},
        ],
    )
    assert rotations(out) == [90, 0, 0]


def test_crop_keeps_the_box_as_displayed(three_pages: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.pdf"
    run(
        three_pages,
        out,
        [{"type": "crop", "box": {"x": 100, "y": 150, "w": 300, "h": 400}}],
    )
    before, after = words(three_pages), words(out)
    moved = 0
    for n in range(3):
        assert (after[n].width, after[n].height) == (300, 400)
        (old,) = before[n].find(f"Marker{n + 1}")
        inside = 100 <= old.x0 and old.x1 <= 400 and 150 <= old.y0 and old.y1 <= 550
        assert bool(after[n].find(f"Marker{n + 1}")) == inside
        if inside:
            (new,) = after[n].find(f"Marker{n + 1}")
            assert new.x0 == pytest.approx(old.x0 - 100, abs=0.5)
            assert new.y0 == pytest.approx(old.y0 - 150, abs=0.5)
            moved += 1
    assert moved == 2  # the turned page's marker lies outside the box


def test_a_crop_box_off_the_page_is_refused_naming_the_field(
    three_pages: Path, tmp_path: Path
) -> None:
    with pytest.raises(InvalidOperation) as caught:
        run(
            three_pages,
            tmp_path / "out.pdf",
            [{"type": "crop", "box": {"x": 5000, "y": 0, "w": 100, "h": 100}}],
        )
    assert caught.value.field == "operations[0].box"


def test_filled_and_flattened_form_shows_its_values(form: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.pdf"
    report = run(
        form,
        out,
        [
            {
                "type": "fillForm",
                "flatten": True,
                "values": {
                    "person.name": "Jane Zyxwv",
                    "agree": True,
                    "country": "Spain",
                    "langs": ["fr", "es"],
                },
            }
        ],
    )
    assert report.filled == ("agree", "country", "langs", "person.name")  # type: ignore[attr-defined]
    text = words(out)[0].text
    assert "Jane Zyxwv" in text and "Spain" in text
    with pikepdf.open(out) as pdf:
        assert not pdf.pages[0].obj.get("/Annots")
        assert not pdf.Root.get("/AcroForm", pikepdf.Dictionary()).get("/Fields")
    image = render(out, 1, dpi=72)
    # The check mark is drawn in the checkbox; text pixels in the name field.
    assert count_pixels(image.crop((72, 120, 90, 138)), (0, 0, 0), tolerance=90) > 10
    assert count_pixels(image.crop((72, 72, 300, 92)), (0, 0, 0), tolerance=90) > 30


def test_filled_form_keeps_live_fields_unless_flattened(
    form: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.pdf"
    run(
        form,
        out,
        [
            {
                "type": "fillForm",
                "values": {"person.name": "Ann", "agree": False, "country": "France"},
            }
        ],
    )
    with pikepdf.open(out) as pdf:
        fields = {str(f.T): f for f in pdf.Root.AcroForm.Fields}
        assert str(fields["person.name"].V) == "Ann"
        assert fields["agree"].V == pikepdf.Name("/Off")
        assert str(fields["country"].V) == "France"
    assert "Ann" in words(out)[0].text  # its appearance is drawn too


@pytest.mark.parametrize(
    ("values", "field", "problem"),
    [
        ({"nope": "x"}, "operations[0].values.nope", "no form field"),
        ({"country": "Italy"}, "operations[0].values.country", "must be among"),
        ({"person.name": True}, "operations[0].values.person.name", "takes text"),
    ],
)
def test_fill_refuses_what_the_form_cannot_take(
    form: Path, tmp_path: Path, values: dict, field: str, problem: str
) -> None:
    with pytest.raises(InvalidOperation) as caught:
        run(form, tmp_path / "out.pdf", [{"type": "fillForm", "values": values}])
    assert caught.value.field == field and problem in caught.value.problem


needs_corpus = pytest.mark.skipif(not corpus.available(), reason=corpus.ABSENT_REASON)


@needs_corpus
@pytest.mark.corpus
def test_real_tax_form_radio_and_text_filled_and_flattened(tmp_path: Path) -> None:
    out = tmp_path / "out.pdf"
    run(
        corpus.CORPUS / "160F-2019.pdf",
        out,
        [
            {
                "type": "fillForm",
                "flatten": True,
                "values": {"A.NOM": "Zyxwvut", "R.CM": "Oui"},
            }
        ],
    )
    assert "Zyxwvut" in words(out)[0].text
    with pikepdf.open(out) as pdf:
        assert not pdf.Root.get("/AcroForm", pikepdf.Dictionary()).get("/Fields")


@needs_corpus
@pytest.mark.corpus
def test_radio_value_not_in_the_group_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidOperation) as caught:
        run(
            corpus.CORPUS / "160F-2019.pdf",
            tmp_path / "out.pdf",
            [{"type": "fillForm", "values": {"R.CM": "Peut-etre"}}],
        )
    assert caught.value.field == "operations[0].values.R.CM"


@needs_corpus
@pytest.mark.corpus
def test_flatten_burns_annotations_and_keeps_links(tmp_path: Path) -> None:
    src = corpus.CORPUS / "tracemonkey-annotated-hello.pdf"
    out = tmp_path / "out.pdf"
    run(src, out, [{"type": "flatten"}])
    with pikepdf.open(src) as pdf:
        before = [str(a.Subtype) for p in pdf.pages for a in p.obj.get("/Annots", [])]
    with pikepdf.open(out) as pdf:
        after = [str(a.Subtype) for p in pdf.pages for a in p.obj.get("/Annots", [])]
    assert "/FreeText" in before
    assert set(after) <= {"/Link"} and after.count("/Link") == before.count("/Link")
    assert "Hello" in " ".join(p.text for p in words(out))
