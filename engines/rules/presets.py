"""The presets: named patterns for common personal data, each with the check
that keeps false positives down (`checks`). One table, one entry per preset.

A preset's pattern runs on text with compatibility forms folded (full-width
digits, ligatures, no-break spaces: `engines.pdf.text.folding`), case
insensitive. It may mark the part to redact with a group named `hit` (a date
of birth redacts the date, not the word "born"); `check` then judges that part.
Presets whose numbers carry a weak check (a 9-digit BSN passes the 11-proof
one time in 11) only match near a keyword that names them.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

import regex

from engines.rules import checks

Check = Callable[[regex.Match[str]], bool]


@dataclass(frozen=True, slots=True)
class Preset:
    """`pattern` finds candidates; `check` keeps the real ones; `about` is
    what the README and the errors say of it."""

    name: str
    pattern: regex.Pattern[str]
    check: Check
    about: str
    # Where the redacted part of a candidate ends when the pattern cannot say
    # (an IBAN's length depends on its country; a card number may be followed
    # by its expiry): a span, or None to drop it.
    locate: Callable[[regex.Match[str]], tuple[int, int] | None] | None = None
    # Whether candidates are searched overlapped (one may start inside
    # another): where the pattern cannot tell where a value starts.
    overlapped: bool = False


def _compile(pattern: str) -> regex.Pattern[str]:
    return regex.compile(pattern, regex.IGNORECASE | regex.VERBOSE | regex.V1)


def _hit(match: regex.Match[str]) -> str:
    return match.group("hit") if "hit" in match.groupdict() else match.group(0)


def _text_check(test: Callable[[str], bool]) -> Check:
    return lambda match: test(_hit(match))


# Separators inside numbers: a space, a dot, a dash (one at a time).
_SEP = r"[ .\-]"
_MONTHS = (
    "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    "|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
    "|janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre"
    "|novembre|d[ée]cembre|januar|februar|m[äa]rz|juni|juli|oktober|dezember"
)
_MONTH_NUMBER = {
    **{
        name: n
        for n, names in enumerate(
            [
                ("jan", "january", "janvier", "januar"),
                ("feb", "february", "février", "fevrier", "februar"),
                ("mar", "march", "mars", "märz", "marz"),
                ("apr", "april", "avril"),
                ("may", "mai"),
                ("jun", "june", "juin", "juni"),
                ("jul", "july", "juillet", "juli"),
                ("aug", "august", "août", "aout"),
                ("sep", "sept", "september", "septembre"),
                ("oct", "october", "octobre", "oktober"),
                ("nov", "november", "novembre"),
                ("dec", "december", "décembre", "decembre", "dezember"),
            ],
            start=1,
        )
        for name in names
    }
}
_BIRTH_WORDS = (
    r"date\ of\ birth|birth\ ?date|birthday|d\.?o\.?b\.?|born(?:\ on)?"
    r"|n[ée]e?\ le|date\ de\ naissance|geburtsdatum|geb\.?-?\ ?datum|geb\."
    r"|geboren(?:\ am)?"
    r"|geboortedatum|fecha\ de\ nacimiento|data\ di\ nascita"
)


def _birth_date(match: regex.Match[str]) -> bool:
    """The date after the keyword is a real past date (day/month order: the
    one that makes a date, day first when both do)."""
    parts = match.groupdict()
    today = datetime.date.today()
    if parts.get("iso_y"):
        return checks.date(
            int(parts["iso_d"]), int(parts["iso_m"]), int(parts["iso_y"]),
            not_after=today,
        )  # fmt: skip
    if parts.get("word_m"):
        month = _MONTH_NUMBER.get(parts["word_m"].casefold().rstrip("."), 0)
        day = int(parts.get("word_d") or parts.get("word_d2") or 0)
        return checks.date(day, month, int(parts["word_y"]), not_after=today)
    first, second, year = int(parts["a"]), int(parts["b"]), int(parts["y"])
    if year < 100:
        year += 1900 if year > today.year % 100 else 2000
    return checks.date(first, second, year, not_after=today) or checks.date(
        second, first, year, not_after=today
    )


def _iban_span(match: regex.Match[str]) -> tuple[int, int] | None:
    """The candidate cut at its country's length, at a group's end; None
    when the country is unknown or the number runs on without a space."""
    text = match.group(0)
    length = checks.IBAN_LENGTHS.get(text[:2].upper())
    if length is None:
        return None
    seen = 0
    for index, char in enumerate(text):
        seen += char.isalnum()
        if seen == length:
            end = index + 1
            if end < len(text) and not text[end].isspace():
                return None
            return match.start(), match.start() + end
    return None


def _card_span(match: regex.Match[str]) -> tuple[int, int] | None:
    """The longest head of the candidate, cut where one of its groups ends,
    that is a card number: a table row prints the expiry or the CVV right
    after it ("4111 1111 1111 1111 123")."""
    text = match.group(0)
    for end in [
        len(text),
        *(i for i in range(len(text) - 1, 0, -1) if text[i] in " -"),
    ]:
        if checks.card(text[:end]):
            return match.start(), match.start() + end
    return None


def _iban(match: regex.Match[str]) -> bool:
    span = _iban_span(match)
    if span is None:
        return False
    start, end = span
    return checks.iban(match.string[start:end])


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "email",
            _compile(
                r"(?<![\w.+\-@])[\w.+\-%']{1,64}@[\w\-]+(?:\.[\w\-]+)*\.\p{L}{2,24}"
                r"(?![\w\-@])"
            ),
            _text_check(checks.email),
            "e-mail addresses: a local part and a dotted domain, dots and "
            "hyphens where RFC 5321 allows them",
        ),
        Preset(
            "phone",
            _compile(
                rf"""(?<![\w+]|\d[.\-/:]|\d{{4}}\ )  # not in a date, a time, an IBAN's groups
                (?:
                    \+\d{{1,3}}(?:{_SEP}?\(?\d{{1,4}}\)?){{2,6}}
                  | 0\d{{1,4}}[ .\-/]?\d{{2,4}}(?:{_SEP}?\d{{2,4}}){{1,3}}
                  | \(0\d{{1,4}}\)\ ?\d{{2,4}}(?:{_SEP}?\d{{2,4}}){{1,3}}
                  | (?:1{_SEP}?)?(?:\(\d{{3}}\)\ ?|\d{{3}}{_SEP})\d{{3}}{_SEP}\d{{4}}
                )(?![\w]|[.:/]\d)"""
            ),
            _text_check(checks.phone),
            "telephone numbers: international (+ or 00 and a country code, 8 to "
            "15 digits as E.164 allows), national with a trunk 0, in parentheses "
            "or not (10 to 12 digits), "
            "North American (area code and exchange from 2 to 9, not N11)",
        ),
        Preset(
            "iban",
            _compile(r"(?<![\w])[A-Z]{2}\d{2}(?:\ ?[A-Z0-9]){10,30}"),
            _iban,
            "IBANs: the country's length and the ISO 7064 mod 97-10 check",
            _iban_span,
            overlapped=True,
        ),
        Preset(
            "card",
            _compile(r"(?<![\d\-])\d(?:[ \-]?\d){11,18}(?![\d\-])"),
            lambda match: _card_span(match) is not None,
            "payment card numbers: an issuer's prefix for its length (Visa, "
            "Mastercard, American Express, Discover, JCB, Diners, UnionPay, "
            "Maestro) and the Luhn check",
            _card_span,
        ),
        Preset(
            "ssn",
            _compile(r"(?<![\d\-])\d{3}([\- ])\d{2}\1\d{4}(?![\d\-])"),
            _text_check(checks.us_ssn),
            "US Social Security numbers (123-45-6789): area not 000, 666 or "
            "900-999, group not 00, serial not 0000",
        ),
        Preset(
            "fr-nir",
            _compile(
                r"(?<![\w])[1278]\ ?\d{2}\ ?\d{2}\ ?(?:\d{2}|2[AB])\ ?\d{3}"
                r"\ ?\d{3}\ ?\d{2}(?![\w])"
            ),
            _text_check(checks.fr_nir),
            "French social security numbers (NIR): 13 characters and the key "
            "97 − (number mod 97), Corsica's 2A/2B included",
        ),
        Preset(
            "nl-bsn",
            _compile(
                r"(?:bsn|burgerservicenummer|sofinummer)\W{0,3}(?:nr\.?\W{0,2})?"
                r"(?P<hit>\d{4}\.?\d{2}\.?\d{3}|\d{9})(?![\w])"
            ),
            _text_check(checks.nl_bsn),
            "Dutch citizen service numbers (BSN) after the word BSN, "
            "burgerservicenummer or sofinummer: 9 digits and the 11-proof",
        ),
        Preset(
            "de-tax-id",
            _compile(
                r"(?:steuer-?id(?:entifikationsnummer)?|steuer-?idnr\.?|idnr\.?"
                r"|tax\ id(?:entification\ number)?)\W{0,3}"
                r"(?P<hit>\d{2}\ ?\d{3}\ ?\d{3}\ ?\d{3})(?![\w])"
            ),
            _text_check(checks.de_tax_id),
            "German tax identification numbers (Steuer-IdNr) after the word "
            "Steuer-ID, IdNr or tax ID: 11 digits, the digit rule and the ISO "
            "7064 MOD 11,10 check digit",
        ),
        Preset(
            "ipv4",
            _compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)"),
            _text_check(checks.ipv4),
            "IPv4 addresses: four numbers from 0 to 255",
        ),
        Preset(
            "ipv6",
            _compile(
                r"(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}(?:(?:\d{1,3}\.){3}\d{1,3}"
                r"|[0-9a-f]{0,4})(?:%[\w.]+)?(?![\w:]|\.\d)"
            ),
            _text_check(checks.ipv6),
            "IPv6 addresses, compressed forms and embedded IPv4 included, as "
            "Python's ipaddress parses them",
        ),
        Preset(
            "date-of-birth",
            _compile(
                rf"""(?:{_BIRTH_WORDS})(?:\W{{0,3}}\((?:[dmyjta]{{1,4}}[/.\-\ ]?){{3}}\))?
                \W{{0,40}}(?:on\ (?:the\ )?|am\ |le\ )?(?P<hit>
                    (?P<iso_y>(?:19|20)\d{{2}})(?P<iso_sep>[./\-])(?P<iso_m>\d{{1,2}})
                    (?P=iso_sep)(?P<iso_d>\d{{1,2}})
                  | (?P<a>\d{{1,2}})(?P<sep>[./\-])(?P<b>\d{{1,2}})(?P=sep)(?P<y>\d{{4}}|\d{{2}})
                  | (?P<word_d>\d{{1,2}})(?:st|nd|rd|th|er|\.)?(?:\ of\ |\ |-)
                    (?P<word_m>{_MONTHS})\.?[\ \-](?P<word_y>\d{{4}})
                  | (?P<word_m>{_MONTHS})\.?\ (?P<word_d2>\d{{1,2}})(?:st|nd|rd|th)?,?
                    \ (?P<word_y>\d{{4}})
                )(?![\w])"""
            ),
            _birth_date,
            "dates of birth: a real past date (numeric, ISO or with the month's "
            "name, in English, French or German) right after a keyword (born, "
            "date of birth, DOB, née le, date de naissance, geboren, geb., "
            "geboortedatum...); the date goes, the keyword stays",
        ),
        Preset(
            "url",
            _compile(
                r"(?<![\w@/])(?:https?://|www\.)"
                r"(?:[^\s<>\"'`{}|\\^()«»“”‘’]|\([^\s<>\"'()]*\))+?"
                r"(?=[.,;:!?)\]}>\"'«»“”‘’]*(?:\s|$))"
            ),
            _text_check(checks.url),
            "web addresses starting with http://, https:// or www. and naming "
            "a host (after a user and password, if any); trailing punctuation and "
            "closing quotes left out, parentheses inside the path kept",
        ),
    )
}


def hit_span(preset: Preset, match: regex.Match[str]) -> tuple[int, int] | None:
    """The span of the part of `match` that is redacted (None: no match)."""
    if preset.locate is not None:
        return preset.locate(match)
    return match.span("hit") if "hit" in match.groupdict() else match.span()
