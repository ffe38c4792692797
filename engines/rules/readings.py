"""A page's text as each rule reads it: the lines MuPDF gives joined by
spaces, and where a value runs on from one line to the next, joined without.

A soft hyphen takes the place of each joint (and of a hyphenating hyphen):
folding drops it, so the folded text reads the value whole, and every offset
stays that of the page's text, whose boxes the matches take.
"""

from __future__ import annotations

from engines.pdf.text.extract import PageText
from engines.pdf.text.folding import Fold, Folded
from engines.rules.spans import fold_of, quick_fold
from engines.rules.types import Rule

# Presets whose values a line may break inside with no space of their own (a
# column breaks an address at its "@", a hyphen or a slash).
WRAPPED = frozenset(("email", "url"))
JOINT = "\u00ad"
_WRAPS_AFTER = ("@", "-", "/", "_", "=", "&")


class Readings:
    """A page's text as each rule reads it (folded once per fold): the email
    and url presets with the lines a value breaks across joined, the other
    presets with numbers broken after a dash joined; text and regular
    expressions as written, then with the words hyphenated at a line's end
    joined (`across`: only matches over such a joint are new)."""

    def __init__(self, text: PageText) -> None:
        self.text = text
        self.sources: dict[str, str] = {"plain": text.text}
        self.folds: dict[tuple[str, Fold], Folded] = {}

    def of(self, rule: Rule) -> list[tuple[str, Folded, bool]]:
        if rule.kind == "preset":
            names = ["wrapped" if rule.value in WRAPPED else "numbers"]
        else:
            names = ["plain", "dehyphenated"]
        out = []
        for name in names:
            source = self._source(name)
            if name == "dehyphenated" and JOINT not in source:
                continue
            fold = fold_of(rule)
            read = name if source is not self.text.text else "plain"
            if (read, fold) not in self.folds:
                self.folds[read, fold] = quick_fold(source, fold)
            out.append((source, self.folds[read, fold], name == "dehyphenated"))
        return out

    def _source(self, name: str) -> str:
        if name not in self.sources:
            self.sources[name] = _joined(self.text, name)
        return self.sources[name]


def _joined(text: PageText, how: str) -> str:
    """The page's text (its lines joined by spaces) with the joints between
    two lines made soft hyphens: "wrapped", where the first ends in a
    character an address breaks after or the second starts with "@";
    "numbers", where a number breaks after a dash; "dehyphenated", where a
    word is hyphenated at the first's end (the hyphen goes too)."""
    chars = list(text.text)
    lines, starts = text.lines, text.line_starts
    for before, after, start in zip(lines, lines[1:], starts[1:], strict=False):
        if how == "numbers":
            digits = before.text[-2:-1].isdigit() and after.text[:1].isdigit()
            if digits and before.text.endswith("-"):
                chars[start - 1] = JOINT
        elif how == "dehyphenated":
            word = before.text[-2:-1].isalpha() and after.text[:1].isalpha()
            if word and before.text.endswith(("-", JOINT)):
                chars[start - 2] = chars[start - 1] = JOINT
        elif after.text.startswith("@") or (
            # A capital starts a sentence, not the rest of an address.
            before.text.endswith(_WRAPS_AFTER) and not after.text[:1].isupper()
        ):
            chars[start - 1] = JOINT
    joined = "".join(chars)
    return text.text if joined == text.text else joined
