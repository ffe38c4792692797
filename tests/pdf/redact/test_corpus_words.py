"""Words of the shared corpus's real documents redacted, the others kept.

What was removed is judged by independent tools: poppler's `pdftotext` for the
text, pikepdf (every stream decompressed, every string object) for the bytes,
`qpdf --check` for the file's structure.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from engines.pdf import geometry
from tests.pdf.redact.helpers import pdftotext, redact_file, redaction

CORPUS_CASES = {
    # file: (1-based page to cut out and redact alone, or None for the whole file,
    #        the two distinctive words to redact)
    "tracemonkey.pdf": (None, ("incrementally", "interprocedural")),
    "three_columns.pdf": (None, ("three", "two")),
    "standard_fonts.pdf": (None, ("symbol", "zapfdingbats")),
    "rotation.pdf": (None, ("landscape", "normal")),
    "freeculture.pdf": (7, ("punishable", "Marysarah")),
    "160F-2019.pdf": (None, ("supplémentaires", "gratifications")),
}


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(CORPUS_CASES))
def test_corpus_words_are_redacted_and_the_others_stay(
    tmp_path: Path, corpus: Path, facts: dict[str, Any], name: str
) -> None:
    only_page, targets = CORPUS_CASES[name]
    source = tmp_path / name
    with pymupdf.open(corpus / name) as original:
        if only_page is None:
            source.write_bytes((corpus / name).read_bytes())
        else:
            extract = pymupdf.open()
            extract.insert_pdf(original, from_page=only_page - 1, to_page=only_page - 1)
            extract.save(source)
    listed = [
        (entry["page"], word["word"])
        for entry in facts[name]["distinctive_words"]
        if only_page is None or entry["page"] == only_page
        for word in entry["words"]
    ]
    placements = []
    with pymupdf.open(source) as document:
        for page_number, word in listed:
            if word not in targets:
                continue
            index = 0 if only_page else page_number - 1
            page = document[index]
            boxes = tuple(
                geometry.rect_to_box(geometry.page_rect_to_display(page, rect))
                for rect in page.search_for(word)
            )
            assert boxes, word
            placements.append(redaction(index, *boxes))
    assert len(placements) == 2
    before = pdftotext(source).casefold()
    text = pdftotext(redact_file(source, placements)).casefold()
    for _, word in listed:
        assert (word.casefold() in text) is (word not in targets), word
    # Nothing else went: every vanished token is (part of) a redacted word.
    lost = Counter(before.split()) - Counter(text.split())
    assert lost
    assert all(any(t.casefold() in token for t in targets) for token in lost), lost
