"""Text files become monospaced pages whose words can be found again."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.convert import (
    ConversionTimeout,
    Detected,
    Family,
    LimitExceeded,
    Limits,
    detect,
    to_pdf,
)
from engines.convert.text import PAGE_HEIGHT, PAGE_WIDTH, wrap
from tests.convert.helpers import page_sizes, pdf_text


def convert(tmp_path: Path, data: bytes, limits: Limits | None = None) -> Path:
    source, dest = tmp_path / "in.txt", tmp_path / "out.pdf"
    source.write_bytes(data)
    to_pdf(str(source), detect(str(source)), str(dest), limits or Limits())
    return dest


@pytest.mark.parametrize(
    ("codec", "text"),
    [
        ("utf-8", "Grüße aus Köln und naïve Cafés."),
        ("utf-16", "Sixteen bits: ünïcödé letters."),
        ("cp1252", "Le français: élève, crème brûlée, œuvre, 5 € la pièce."),
        ("latin-1", "Déjà vu: señor, façade, smörgåsbord."),
        ("shift_jis", "日本語のテキストです。東京都は日本の首都です。"),
        ("gb18030", "中华人民共和国的首都是北京市。"),
        ("cp1251", "Съешь же ещё этих мягких французских булок."),
        ("euc-kr", "한국어 텍스트입니다 안녕하세요."),
    ],
)
def test_text_in_any_encoding_is_found_in_the_pdf(
    tmp_path: Path, codec: str, text: str
) -> None:
    lines = [text] + [f"line {n}" for n in range(11)]  # not a CSV table
    data = "\n".join(lines).encode(codec)

    found = pdf_text(convert(tmp_path, data))

    assert text in found


def test_pages_are_the_originals_landscape_sheets(tmp_path: Path) -> None:
    lines = "\n".join(f"log line {n}: orchard lantern" for n in range(200))

    pdf = convert(tmp_path, lines.encode())

    sizes = page_sizes(pdf)
    assert len(sizes) == 4  # 49 lines a page
    assert all(size == (PAGE_WIDTH, PAGE_HEIGHT) for size in sizes)
    assert "log line 199: orchard lantern" in pdf_text(pdf)


def test_long_lines_wrap_at_a_space_and_every_word_survives(tmp_path: Path) -> None:
    words = [f"word{n:04d}" for n in range(600)]

    found = pdf_text(convert(tmp_path, " ".join(words).encode())).split()

    assert found == words


def test_a_long_word_is_cut_at_the_page_edge(tmp_path: Path) -> None:
    token = "".join(chr(ord("a") + n % 26) for n in range(1000))

    lines = pdf_text(convert(tmp_path, token.encode())).split()

    assert "".join(lines) == token
    assert max(len(line) for line in lines) < 160


def test_wide_characters_take_two_columns() -> None:
    assert list(wrap("漢字" * 10, 8)) == ["漢字漢字"] * 5


def test_a_form_feed_starts_a_page(tmp_path: Path) -> None:
    pdf = convert(tmp_path, b"first sheet\n\x0csecond sheet\n")

    assert len(page_sizes(pdf)) == 2


def test_tabs_and_control_characters_do_not_break_the_text(tmp_path: Path) -> None:
    filler = b"plain words to make a file of text around the odd control byte\n" * 3
    data = filler + b"name\tvalue\x07bell\x1besc\nnext line\n"

    found = pdf_text(convert(tmp_path, data))

    assert "name" in found and "value bell esc" in found and "next line" in found


def test_an_empty_file_is_one_blank_page(tmp_path: Path) -> None:
    source, dest = tmp_path / "in.txt", tmp_path / "out.pdf"
    source.write_bytes(b"")
    detected = Detected("text/plain", Family.TEXT, "txt", encoding="utf-8")

    rendition = to_pdf(str(source), detected, str(dest), Limits())

    assert rendition.page_count == 1


def test_too_many_pages_is_a_clear_error(tmp_path: Path) -> None:
    data = "\n".join(f"line {n}" for n in range(5000)).encode()

    with pytest.raises(LimitExceeded, match="more than 10 pages"):
        convert(tmp_path, data, Limits(max_pages=10))


def test_a_text_past_its_time_limit_stops(tmp_path: Path) -> None:
    data = "\n".join(f"line {n}" for n in range(20000)).encode()

    with pytest.raises(ConversionTimeout, match="time limit"):
        convert(tmp_path, data, Limits(timeout=0.0))


def test_bytes_in_no_known_encoding_are_refused_or_rendered(tmp_path: Path) -> None:
    """A "text" whose encoding no detector can name: either it is not text
    (an unsupported file) or it becomes pages; never a crash."""
    import random

    rng = random.Random(3)
    data = bytes(rng.choice(range(0x80, 0x100)) for _ in range(5000))
    source, dest = tmp_path / "in.txt", tmp_path / "out.pdf"
    source.write_bytes(data)
    detected = detect(str(source))

    if detected.family.value == "text":
        assert to_pdf(str(source), detected, str(dest), Limits()).page_count >= 1
    else:
        from engines.errors import UnsupportedDocument

        with pytest.raises(
            UnsupportedDocument, match="not one the service can convert"
        ):
            to_pdf(str(source), detected, str(dest), Limits())
