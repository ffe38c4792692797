"""Presets find what they name and nothing that only looks like it: check
digits and plausibility rules keep the invalid numbers out."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from engines.errors import SearchError
from engines.rules import PRESETS, Rule, checks, compile_rule, find_matches, spans

VALID_CARDS = ["4111 1111 1111 1111", "5555-5555-5555-4444", "378282246310005"]
INVALID_CARDS = ["4111 1111 1111 1112", "1234 5678 9012 3456", "5555 5555 5555 4445"]
VALID_IBANS = ["FR76 3000 6000 0112 3456 7890 189", "DE89370400440532013000"]
INVALID_IBANS = ["FR76 3000 6000 0112 3456 7890 188", "DE89370400440532013001"]


def _found(preset: str, text: str) -> list[str]:
    rule = Rule("preset", preset)
    return [text[a:b] for a, b in spans(rule, compile_rule(rule), text, timeout=1)]


@pytest.fixture(scope="module")
def numbers_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One page listing valid and invalid card numbers and IBANs."""
    doc = pymupdf.open()
    page = doc.new_page()
    lines = [
        *(f"card {n} on file" for n in VALID_CARDS + INVALID_CARDS),
        *(f"account {n} on file" for n in VALID_IBANS + INVALID_IBANS),
    ]
    for n, line in enumerate(lines):
        page.insert_text((50, 80 + 22 * n), line, fontsize=10)
    path = tmp_path_factory.mktemp("rules") / "numbers.pdf"
    doc.save(path)
    return path


def test_only_the_valid_card_numbers_and_ibans_of_a_page_are_matched(
    numbers_page: Path,
) -> None:
    rules = [Rule("preset", "card"), Rule("preset", "iban")]
    found = find_matches(str(numbers_page), rules, document_key="d")
    assert sorted(m.text for m in found if m.rule == 0) == sorted(VALID_CARDS)
    assert sorted(m.text for m in found if m.rule == 1) == sorted(VALID_IBANS)
    assert all(m.target == "page" and len(m.boxes) == 1 for m in found)
    # The same request finds the same matches, with the same ids.
    again = find_matches(str(numbers_page), rules, document_key="d")
    assert [m.id for m in again] == [m.id for m in found]


CASES = [
    ("email", "mail jane.roe@example.org, not a..b@x.org", ["jane.roe@example.org"]),
    (
        "phone",
        "call +33 1 23 45 67 89 or (212) 555-0147",
        ["+33 1 23 45 67 89", "(212) 555-0147"],
    ),
    ("phone", "on 2024-01-15, room 555-1234, fax 020 7946 0958", ["020 7946 0958"]),
    ("phone", "not (111) 555-0147 nor +0 123 456 789", []),
    (
        "ssn",
        "SSN 536-22-1234, not 000-12-3456, 666-12-3456, 123-00-4567",
        ["536-22-1234"],
    ),
    (
        "fr-nir",
        "NIR 2 55 08 14 168 025 38, not 2 55 08 14 168 025 39",
        ["2 55 08 14 168 025 38"],
    ),
    ("nl-bsn", "BSN 111222333 and BSN 111222334; 111222333 alone", ["111222333"]),
    ("de-tax-id", "Steuer-ID 86 095 742 719, IdNr 86095742718", ["86 095 742 719"]),
    ("ipv4", "from 192.168.1.10 not 300.1.1.1 nor version 1.2.3.4.5", ["192.168.1.10"]),
    (
        "ipv6",
        "at 2001:db8::ff00:42:8329 and ::1, not 12:30:45",
        ["2001:db8::ff00:42:8329", "::1"],
    ),
    ("date-of-birth", "Date of birth: 12/03/1980; met on 12/03/1980", ["12/03/1980"]),
    (
        "date-of-birth",
        "born on March 5, 1975; née le 3 mars 1962; DOB 1990-02-30",
        ["March 5, 1975", "3 mars 1962"],
    ),
    (
        "url",
        "see https://example.com/a?b=c. and (www.example.org), not www.x",
        ["https://example.com/a?b=c", "www.example.org"],
    ),
]


@pytest.mark.parametrize(("preset", "text", "expected"), CASES)
def test_each_preset_keeps_what_its_check_accepts(
    preset: str, text: str, expected: list[str]
) -> None:
    assert _found(preset, text) == expected


def test_check_digits() -> None:
    assert checks.luhn("79927398713") and not checks.luhn("79927398710")
    assert checks.iban("GB82 WEST 1234 5698 7654 32")
    assert not checks.iban("GB82 WEST 1234 5698 7654 33")
    assert not checks.iban("XX82 WEST 1234 5698 7654 32")  # no such country
    assert checks.nl_bsn("111222333") and not checks.nl_bsn("123456789")
    assert checks.fr_nir("2 55 08 2A 168 025 10") is (
        97 - int("2550819168025") % 97 == 10
    )


def test_a_slow_or_bad_pattern_is_refused() -> None:
    with pytest.raises(SearchError):
        compile_rule(Rule("regex", "(unclosed"))
    with pytest.raises(SearchError):
        compile_rule(Rule("preset", "no-such"))
    slow = Rule("regex", "(?:a|aa)+$")
    with pytest.raises(SearchError):
        spans(slow, compile_rule(slow), "a" * 60 + "b", timeout=0.05)
    assert set(PRESETS) >= {"email", "phone", "iban", "card", "ssn", "url"}
