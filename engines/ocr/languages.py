"""Which of the candidate languages a page is written in, from its words.

Each extra language Tesseract loads costs time on every page (measured in
OCR_NOTES: all seven default languages take 1.7 times as long as one), so a
document is read with all candidates only until its words show which language
it is in. The signal is the share of common function words ("the", "und",
"les", "het"...) of each language among the recognised words: they are short,
frequent and spelled in plain letters, so even a model of another language
recognises them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

# Frequent words that identify a language; words common to several of these
# languages ("de", "la", "a", "que") are left out, they tell nothing apart.
_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "eng": frozenset(
        "the and of to is that for with this are was be it not from have which "
        "by on at an or but has had were their will would can".split()
    ),
    "fra": frozenset(
        "le les et est une dans pour qui sur pas du au avec sont aux ces cette "
        "nous vous ils elle mais ou leur être été fait".split()
    ),
    "deu": frozenset(
        "der die das und ist nicht mit den von zu ein eine auf für dem des sich "
        "auch im wird werden sind oder bei nach wie".split()
    ),
    "spa": frozenset(
        "el los las y en por con para es del se al como más su lo pero sus está "
        "son este esta entre también fue hay".split()
    ),
    "ita": frozenset(
        "il di che è per un non della sono gli nel alla anche si ha questo "
        "delle dei degli come più sul alla ma".split()
    ),
    "por": frozenset(
        "o e do da em um uma com não os dos das no na ao à é pelo pela mais "
        "seu sua são foi também".split()
    ),
    "nld": frozenset(
        "het een en van is dat op te zijn met voor niet aan er maar ook bij "
        "wordt door naar dit deze hij wij".split()
    ),
}
# Fewer hits than this on a page: too little text to tell (a form, a table).
MIN_HITS = 8
# A second language is kept when it has at least this share of the first's hits
# (bilingual documents: Belgian, Swiss, Canadian forms).
SECOND_SHARE = 0.4


def detect(words: Iterable[str], candidates: Sequence[str]) -> tuple[str, ...] | None:
    """The languages among `candidates` the words are written in, most likely
    first; None when the words do not tell (too few hits, or no candidate has a
    word list)."""
    known = [code for code in candidates if code in _FUNCTION_WORDS]
    if len(known) < 2:
        return None
    counts: Counter[str] = Counter()
    for word in words:
        token = word.strip(".,;:!?()[]\"'«»“”‘’").casefold()
        for code in known:
            if token in _FUNCTION_WORDS[code]:
                counts[code] += 1
    ranked = counts.most_common()
    if not ranked or ranked[0][1] < MIN_HITS:
        return None
    first, hits = ranked[0]
    chosen = [first]
    if len(ranked) > 1 and ranked[1][1] >= SECOND_SHARE * hits:
        chosen.append(ranked[1][0])
    return tuple(chosen)
