"""Folding a page's text at once must give what folding it character by
character gives, whatever the text and the fold."""

from __future__ import annotations

import itertools

import pymupdf
import pytest

from engines.pdf.text import folding
from engines.pdf.text.folding import Fold, fold_text
from tests import corpus

FOLDS = [Fold(*flags) for flags in itertools.product((False, True), repeat=3)]
TEXTS = [
    "",
    " ",
    "   leading and  double  spaces   ",
    "Return VALUE of the\tfunction\u00a0here",
    "Éléphant CAFÉ naïve Straße",
    "e\u0301 composed later, and a lone \u0301 mark",
    "ligature ﬁne ﬂow, ½ and ㎏",
    "soft\u00adhyphen and zero\u200bwidth",
    "Ǆ ǅ ǆ İ ı ß ẞ ς Σ",
    "日本語のテキスト と עברית וערבית عربي",
    "emoji 👍🏽 and \U0001f600 outside the BMP",
    "control \x01 chars \x7f",
]


@pytest.mark.parametrize("fold", FOLDS, ids=repr)
@pytest.mark.parametrize("text", TEXTS, ids=lambda text: repr(text)[:30])
def test_a_text_folds_the_same_at_once_and_one_character_at_a_time(
    text: str, fold: Fold
) -> None:
    table = folding._table(fold)
    assert fold_text(text, fold) == folding._fold_each(text, table, fold)


def test_ordinary_text_takes_the_whole_text_way() -> None:
    fold = Fold(casefold=True, strip_marks=True)
    assert folding._fold_whole("Plain  words", folding._table(fold), False) == (
        folding._fold_each("Plain  words", folding._table(fold), fold)
    )
    assert folding._fold_whole("ﬁne", folding._table(fold), False) is None


@pytest.mark.skipif(not corpus.available(), reason=corpus.ABSENT_REASON)
def test_corpus_pages_fold_the_same_both_ways() -> None:
    checked = 0
    for path in sorted(corpus.CORPUS.glob("*.pdf")):
        with pymupdf.open(path) as doc:
            if doc.needs_pass:
                continue
            for page in list(doc)[:5]:
                text = page.get_text()
                for fold in FOLDS:
                    table = folding._table(fold)
                    assert fold_text(text, fold) == folding._fold_each(
                        text, table, fold
                    ), (path.name, page.number, fold)
                checked += 1
    assert checked > 20
