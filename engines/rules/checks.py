"""Check digits and plausibility tests of the presets: what turns a string of
the right shape into a match (a card number passes Luhn, an IBAN mod 97...).

Each takes the matched text as written (separators included) and answers
whether it is what the preset names. Pure functions, no I/O.
"""

from __future__ import annotations

import datetime
import ipaddress
import re

_NOT_DIGIT = re.compile(r"\D")


def digits(text: str) -> str:
    """The ASCII digits of `text`, in order (full-width ones folded before)."""
    return _NOT_DIGIT.sub("", text)


def luhn(number: str) -> bool:
    """The Luhn (mod 10) check of a digit string: payment cards, some ids."""
    total = 0
    for index, char in enumerate(reversed(number)):
        value = int(char)
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


# Issuer prefixes of ISO/IEC 7812 numbers in use (first digits → lengths):
# Visa, Mastercard, American Express, Discover, JCB, Diners, UnionPay, Maestro.
_CARD_RANGES: tuple[tuple[int, int, frozenset[int]], ...] = (
    (4, 4, frozenset({13, 16, 19})),
    (51, 55, frozenset({16})),
    (2221, 2720, frozenset({16})),
    (34, 34, frozenset({15})),
    (37, 37, frozenset({15})),
    (6011, 6011, frozenset({16, 19})),
    (644, 649, frozenset({16, 19})),
    (65, 65, frozenset({16, 19})),
    (3528, 3589, frozenset({16, 19})),
    (300, 305, frozenset({14, 16})),
    (36, 36, frozenset({14})),
    (38, 39, frozenset({16})),
    (62, 62, frozenset({16, 17, 18, 19})),
    (50, 50, frozenset({12, 13, 14, 15, 16, 17, 18, 19})),
    (56, 58, frozenset({12, 13, 14, 15, 16, 17, 18, 19})),
    (67, 69, frozenset({12, 13, 14, 15, 16, 17, 18, 19})),
)


def card(text: str) -> bool:
    """A payment card number: a known issuer prefix for its length, the Luhn
    check, and not one digit repeated."""
    number = digits(text)
    if not 12 <= len(number) <= 19 or len(set(number)) == 1:
        return False
    issued = any(
        low <= int(number[: len(str(low))]) <= high and len(number) in lengths
        for low, high, lengths in _CARD_RANGES
    )
    return issued and luhn(number)


# IBAN lengths by country (ISO 13616 registry, 2024).
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16,
    "BG": 22, "BH": 22, "BI": 27, "BR": 29, "BY": 28, "CH": 21, "CR": 22,
    "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20,
    "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22,
    "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28,
    "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30,
    "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21,
    "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27,
    "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33,
    "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27,
    "SO": 23, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29,
    "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip


def iban(text: str) -> bool:
    """An IBAN: its country's length and the ISO 7064 mod 97-10 check (the
    number with its first four characters moved to the end, letters as
    10..35, leaves 1)."""
    compact = re.sub(r"[\s-]", "", text).upper()
    if IBAN_LENGTHS.get(compact[:2]) != len(compact) or not compact.isalnum():
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(char, 36)) for char in moved)) % 97 == 1


def us_ssn(text: str) -> bool:
    """A US Social Security number as the SSA issues them: area not 000, 666 or
    900-999, group not 00, serial not 0000; the advertising samples refused."""
    number = digits(text)
    if len(number) != 9:
        return False
    area, group, serial = number[:3], number[3:5], number[5:]
    if area in ("000", "666") or area >= "900" or group == "00" or serial == "0000":
        return False
    return number not in ("078051120", "219099999", "123456789")


def fr_nir(text: str) -> bool:
    """A French social security number (NIR): 13 characters and a 2-digit key,
    key = 97 - (number mod 97); Corsica's 2A and 2B count as 19 and 18."""
    compact = re.sub(r"\s", "", text).upper()
    if len(compact) != 15:
        return False
    body, key = compact[:13], compact[13:]
    body = body.replace("2A", "19", 1) if body[5:7] == "2A" else body
    body = body.replace("2B", "18", 1) if body[5:7] == "2B" else body
    if not (body.isdigit() and key.isdigit()) or body[0] not in "1278":
        return False
    return 97 - int(body) % 97 == int(key)


def nl_bsn(text: str) -> bool:
    """A Dutch citizen service number (BSN): 9 digits passing the "11-proof"
    (9·d1 + 8·d2 + ... + 2·d8 − d9 is a multiple of 11), not all zeros."""
    number = digits(text)
    if len(number) != 9 or number == "000000000":
        return False
    total = sum(int(d) * w for d, w in zip(number[:8], range(9, 1, -1), strict=True))
    return (total - int(number[8])) % 11 == 0


def de_tax_id(text: str) -> bool:
    """A German tax identification number (Steuer-IdNr): 11 digits, the first
    not 0; among the first ten one digit appears twice or three times and the
    others at most once; the last is the ISO 7064 MOD 11,10 check digit."""
    number = digits(text)
    if len(number) != 11 or number[0] == "0":
        return False
    counts = sorted((number[:10].count(d) for d in set(number[:10])), reverse=True)
    if counts[0] not in (2, 3) or (len(counts) > 1 and counts[1] > 1):
        return False
    product = 10
    for char in number[:10]:
        total = (int(char) + product) % 10 or 10
        product = total * 2 % 11
    check = (11 - product) % 10
    return check == int(number[10])


def ipv4(text: str) -> bool:
    try:
        ipaddress.IPv4Address(text)
    except ValueError:
        return False
    return True


def ipv6(text: str) -> bool:
    address = text.split("%", 1)[0]
    if address.count(":") < 2 or not any(c.isalnum() for c in address):
        return False
    try:
        ipaddress.IPv6Address(address)
    except ValueError:
        return False
    return True


def email(text: str) -> bool:
    """An address of RFC 5321's usual form: a local part of at most 64
    characters without dots at its ends or in a row, a domain of labels not
    starting or ending with a hyphen."""
    local, _, domain = text.rpartition("@")
    if not local or len(local) > 64 or len(text) > 254:
        return False
    if local.startswith(".") or local.endswith(".") or ".." in local:
        return False
    labels = domain.split(".")
    return len(labels) >= 2 and all(
        label and not label.startswith("-") and not label.endswith("-")
        for label in labels
    )


def phone(text: str) -> bool:
    """A telephone number: international (+country code, 8 to 15 digits, the
    E.164 limit; 00 as the prefix too) or national (a trunk 0 and 9 to 11
    digits, the area code in parentheses or not; or a North American
    number whose area code and exchange do not start with 0 or 1 and are not
    N11 service codes)."""
    number = digits(text)
    stripped = text.strip()
    if stripped.startswith("+"):
        return 8 <= len(number) <= 15 and number[0] != "0"
    if number.startswith("00"):  # the international prefix, as "+"
        return 8 <= len(number) - 2 <= 15 and number[2] != "0"
    if number.startswith("0"):
        return 10 <= len(number) <= 12 and number[1] != "0"
    if len(number) == 11 and number[0] == "1":
        number = number[1:]
    if len(number) != 10:
        return False
    area, exchange = number[:3], number[3:6]
    return (
        area[0] in "23456789"
        and exchange[0] in "23456789"
        and area[1:] != "11"
        and exchange[1:] != "11"
    )


def date(day: int, month: int, year: int, *, not_after: datetime.date) -> bool:
    """A calendar date from 1900 to `not_after` (a birth date is past)."""
    try:
        when = datetime.date(year, month, day)
    except ValueError:
        return False
    return datetime.date(1900, 1, 1) <= when <= not_after


def url(text: str) -> bool:
    """A web address with a host: a dotted name or an IP address, or localhost."""
    rest = re.sub(r"^(?:https?://|www\.)", "", text, flags=re.IGNORECASE)
    rest = re.sub(r"^[^/?#@]*@", "", rest)  # user and password
    host = re.split(r"[/?#:]", rest, maxsplit=1)[0]
    return "." in host.strip(".") or host.lower() == "localhost" or ipv6(host)
