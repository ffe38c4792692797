"""Every word of a text or HTML page in a legacy encoding reaches the PDF, in
the order it is read: judged by charset-normalizer's own verdict, poppler's
pdftotext and the engine's search (MuPDF), never by the converter itself."""

from __future__ import annotations

from pathlib import Path

from charset_normalizer import from_bytes

from engines.convert import Limits, detect, to_pdf
from engines.pdf.text import clear_cache
from engines.pdf.text.search import search_page
from engines.pdf.types import SearchQuery
from tests.convert.helpers import pdf_text

# A table of contents and a name card: short lines, capitals, few words. Old
# guessers read such Greek as Cyrillic (cp1251, KOI8-R): every word garbage.
GREEK = (
    "ΠΙΝΑΚΑΣ ΠΕΡΙΕΧΟΜΕΝΩΝ\n"
    "Κεφάλαιο 1: Εισαγωγή\n"
    "Κεφάλαιο 2: Μέθοδοι\n"
    "Όνομα: Γιώργος Παπαδόπουλος\n"
    "Διεύθυνση: Οδός Ερμού 12, Αθήνα\n"
)
RUSSIAN_LINKS = "Главная Новости Погода Курс валют Контакты Поиск".split()
ARABIC = (
    "اللغة العربية هي أكثر اللغات السامية تحدثاً\n"
    "وإحدى أكثر اللغات انتشاراً في العالم\n"
    "يتحدثها أكثر من أربعمائة مليون نسمة\n"
)


def convert(tmp_path: Path, data: bytes, name: str) -> tuple[Path, object]:
    source = tmp_path / name
    source.write_bytes(data)
    dest = tmp_path / f"{name}.pdf"
    rendition = to_pdf(str(source), detect(str(source)), str(dest), Limits(timeout=60))
    return dest, rendition


def words(text: str) -> list[str]:
    return [word.strip(":,.") for word in text.split() if len(word) > 2]


def found(pdf: Path, word: str) -> bool:
    clear_cache()
    return bool(search_page(str(pdf), 0, SearchQuery(word)))


def test_a_greek_cp1253_text_is_read_as_greek(tmp_path: Path) -> None:
    data = GREEK.encode("cp1253")
    assert from_bytes(data).best().encoding == "cp1253"  # type: ignore[union-attr]

    pdf, rendition = convert(tmp_path, data, "greek.txt")

    text = pdf_text(pdf)
    assert all(word in text for word in words(GREEK))
    encoding = rendition.fidelity.encoding  # type: ignore[attr-defined]
    assert (encoding.name, encoding.source, encoding.language) == (
        "cp1253",
        "detected",
        "Greek",
    )
    assert 0.9 <= encoding.confidence < 1


def koi8_page() -> bytes:
    items = "".join(
        f'<li><a href="/section/{n}.html" class="menu-item">{word}</a></li>\n'
        for n, word in enumerate(RUSSIAN_LINKS * 2)
    )
    page = (
        "<!DOCTYPE html>\n<html><head><title>Сайт</title>"
        "<style>body{font-family:Arial} .menu-item{color:#333}</style></head>"
        f"<body><ul>{items}</ul><p>Все права защищены.</p></body></html>"
    )
    return page.encode("koi8_r")


def test_an_html_page_without_charset_in_koi8_r_is_read_as_russian(
    tmp_path: Path,
) -> None:
    data = koi8_page()

    pdf, rendition = convert(tmp_path, data, "page.html")

    text = pdf_text(pdf)
    assert all(word in text for word in RUSSIAN_LINKS + ["защищены"])
    assert rendition.fidelity.encoding.name == "koi8-r"  # type: ignore[attr-defined]


def test_an_html_page_follows_its_meta_charset(tmp_path: Path) -> None:
    # Bytes that read as well in KOI8-R as in cp1251: the page says which.
    page = (
        koi8_page()
        .decode("koi8_r")
        .replace(
            "<head>",
            '<head><meta http-equiv="Content-Type" '
            'content="text/html; charset=windows-1251">',
        )
    )

    pdf, rendition = convert(tmp_path, page.encode("cp1251"), "declared.html")

    assert all(word in pdf_text(pdf) for word in RUSSIAN_LINKS)
    encoding = rendition.fidelity.encoding  # type: ignore[attr-defined]
    assert (encoding.name, encoding.source) == ("cp1251", "declared")


def test_arabic_cp1256_text_is_extracted_in_logical_order(tmp_path: Path) -> None:
    pdf, _ = convert(tmp_path, ARABIC.encode("cp1256"), "arabic.txt")

    # poppler gives every line back as typed, vowel marks included.
    extracted = pdf_text(pdf).replace("\u202b", "").replace("\u202c", "")
    for line in ARABIC.splitlines():
        assert line in extracted
    # The engine's search (MuPDF) finds each word, as a user types it.
    for word in ("العربية", "السامية", "تحدثاً", "انتشاراً", "أربعمائة"):
        assert found(pdf, word), word
