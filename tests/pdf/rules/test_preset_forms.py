"""Presets against the forms a records officer meets in real documents: the
whole value is found (never a piece that leaves the rest readable), and the
look-alikes printed next to it stay."""

from __future__ import annotations

import pytest

from engines.rules import Rule, compile_rule, spans


def _found(preset: str, text: str) -> list[str]:
    rule = Rule("preset", preset)
    return [text[a:b] for a, b in spans(rule, compile_rule(rule), text, timeout=1)]


CAUGHT: list[tuple[str, str, list[str]]] = [
    # A card number in a table row, its expiry or CVV in the next cell.
    ("card", "4111 1111 1111 1111 12/27", ["4111 1111 1111 1111"]),
    ("card", "4111 1111 1111 1111 123", ["4111 1111 1111 1111"]),
    ("card", "3782 822463 10005 0127", ["3782 822463 10005"]),
    (
        "card",
        "4111-1111-1111-1111 and 3782-822463-10005",
        ["4111-1111-1111-1111", "3782-822463-10005"],
    ),  # fmt: skip
    ("iban", "iban gb82 west 1234 5698 7654 32.", ["gb82 west 1234 5698 7654 32"]),
    # A UK number with its trunk in parentheses; the 00 international prefix.
    ("phone", "Tel (020) 7946 0958 or", ["(020) 7946 0958"]),
    ("phone", "Tel +44 (0)20 7946 0958", ["+44 (0)20 7946 0958"]),
    ("phone", "Tel 0049 30 1234567", ["0049 30 1234567"]),
    # A table row: the column before holds a number too.
    ("phone", "Smith 42 020 7946 0958", ["020 7946 0958"]),
    (
        "phone",
        "212.555.0147 and +1 (212) 555-0147",
        ["212.555.0147", "+1 (212) 555-0147"],
    ),  # fmt: skip
    (
        "email",
        "(Jane.Roe+News@Mail.Example.CO.UK).",
        ["Jane.Roe+News@Mail.Example.CO.UK"],
    ),  # fmt: skip
    # The IPv4 tail of a mapped address is part of it: it must not stay.
    ("ipv6", "from ::ffff:192.0.2.1, then", ["::ffff:192.0.2.1"]),
    ("ipv6", "via 64:ff9b::192.0.2.33.", ["64:ff9b::192.0.2.33"]),
    ("ipv6", "host fe80::1%eth0 and 2001:db8::1.", ["fe80::1%eth0", "2001:db8::1"]),
    # Quoted or bracketed URLs; the closing mark is not part of the address.
    ("url", "see 'https://example.org/x' now", ["https://example.org/x"]),
    ("url", 'see "https://example.org/x" now', ["https://example.org/x"]),
    ("url", "see <https://example.org/x> now", ["https://example.org/x"]),
    ("url", "see “https://example.org/x” now", ["https://example.org/x"]),
    ("url", "see «https://example.org/x» now", ["https://example.org/x"]),
    # A pair of parentheses inside a path belongs to it; the one that closes
    # the sentence's does not.
    (
        "url",
        "(see https://example.org/wiki/Foo_(bar)).",
        ["https://example.org/wiki/Foo_(bar)"],
    ),  # fmt: skip
    # Credentials in the address: the host comes after them.
    (
        "url",
        "at https://jane:s3cret@example.org/x ok",
        ["https://jane:s3cret@example.org/x"],
    ),  # fmt: skip
    ("date-of-birth", "DOB 12-Mar-1985 and", ["12-Mar-1985"]),
    ("date-of-birth", "DOB: 1985/03/12", ["1985/03/12"]),
    ("date-of-birth", "Date of birth (dd/mm/yyyy): 12/03/1985", ["12/03/1985"]),
    ("date-of-birth", "Date of birth.........: 12/03/1985", ["12/03/1985"]),
    ("date-of-birth", "Geb.-Datum: 12.03.1985", ["12.03.1985"]),
    ("date-of-birth", "born on the 12th of March 1985", ["12th of March 1985"]),
]


@pytest.mark.parametrize(("preset", "text", "expected"), CAUGHT)
def test_a_preset_finds_the_whole_value_as_people_write_it(
    preset: str, text: str, expected: list[str]
) -> None:
    assert _found(preset, text) == expected


LOOK_ALIKES: list[tuple[str, str, list[str]]] = [
    # A date and a time are not a telephone number.
    ("phone", "on 12.03.2024 10 30 we met", []),
    ("phone", "on 03/12/2024 0930 we met", []),
    ("phone", "on 03.12.2024 10:30 we met", []),
    ("ipv6", "at 10:30:45 and 12:30", []),
    # The groups of an IBAN or a card number are not a telephone number.
    ("phone", "IBAN DE89 3704 0044 0532 0130 00", []),
    ("phone", "IBAN FR76 3000 6000 0112 3456 7890 189", []),
    ("card", "order 2024-11-27 item 4111 1111", []),
    ("date-of-birth", "DOB: 31/02/1985 or 12/03/2099", []),
    ("url", "see www.example and http://x", []),
]


@pytest.mark.parametrize(("preset", "text", "expected"), LOOK_ALIKES)
def test_a_look_alike_stays(preset: str, text: str, expected: list[str]) -> None:
    assert _found(preset, text) == expected
