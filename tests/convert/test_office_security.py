"""LibreOffice fetches nothing and runs no macro, whatever the document asks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engines.convert import Limits, OfficePool, PoolSettings, detect, to_pdf
from engines.convert.office.instance import namespace_prefix
from tests.convert import hostile
from tests.convert.helpers import pdf_text, recording_server

REMOTE: list[tuple[str, Callable[[Path, str], Path]]] = [
    (
        "linked picture, picture and text fields, remote template (docx)",
        hostile.docx_with_remote_content,
    ),
    ("linked picture (pptx)", hostile.pptx_with_remote_picture),
    ("linked image, section and object (odt)", hostile.odt_with_remote_content),
    ("WEBSERVICE() and an external workbook (xlsx)", hostile.xlsx_with_external_data),
    ("INCLUDEPICTURE and INCLUDETEXT fields (rtf)", hostile.rtf_with_remote_fields),
]


def convert_all(tmp_path: Path, pool: OfficePool) -> list[str]:
    """Convert every remote-content document; return the requests the local
    web server saw."""
    with recording_server() as server:
        base = server.url("").rstrip("/")
        for number, (_, make) in enumerate(REMOTE):
            path = make(tmp_path / f"remote-{number}", base)
            dest = tmp_path / f"remote-{number}.pdf"
            to_pdf(
                str(path), detect(str(path)), str(dest), Limits(timeout=60), office=pool
            )
            assert pdf_text(dest).strip()
    return server.requests


def test_the_pool_runs_without_network_where_the_machine_allows(
    office_pool: OfficePool,
) -> None:
    assert office_pool.isolated == (namespace_prefix() is not None)


def test_no_document_makes_the_pool_fetch_anything(
    tmp_path: Path, office_pool: OfficePool
) -> None:
    assert convert_all(tmp_path, office_pool) == []


@pytest.fixture(scope="module")
def profile_only_pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OfficePool]:
    workdir = tmp_path_factory.mktemp("profile-only")
    with OfficePool(
        PoolSettings(size=1, isolation="none", workdir=str(workdir))
    ) as pool:
        yield pool


def test_the_hardened_profile_alone_fetches_nothing(
    tmp_path: Path, profile_only_pool: OfficePool
) -> None:
    """Defence in depth: with the instance's network left as it is, the
    profile (no link updates, untrusted links blocked, a dead proxy) and
    the load options still stop every fetch. (Without them, LibreOffice 7.4
    requests the docx and pptx linked pictures and the odt image and object:
    checked once with a bare profile.)"""
    assert convert_all(tmp_path, profile_only_pool) == []


def test_the_profile_settings_are_in_force(office_pool: OfficePool) -> None:
    settings = office_pool.info()["settings"]
    assert isinstance(settings, dict)
    scripting = "/org.openoffice.Office.Common/Security/Scripting"

    assert settings[f"{scripting}/MacroSecurityLevel"] == 3
    assert settings[f"{scripting}/DisableMacrosExecution"] is True
    assert settings[f"{scripting}/BlockUntrustedRefererLinks"] is True
    assert settings["/org.openoffice.Office.Writer/Content/Update/Link"] == 0
    assert settings["/org.openoffice.Office.Calc/Content/Update/Link"] == 1
    assert settings["/org.openoffice.Office.Calc/Formula/Load/OOXMLRecalcMode"] == 1
    assert settings["/org.openoffice.Inet/Settings/ooInetProxyType"] == 1


def test_a_macro_bound_to_opening_the_document_never_runs(
    tmp_path: Path, office_pool: OfficePool
) -> None:
    marker = tmp_path / "macro-ran.txt"
    path = hostile.odt_with_macro(tmp_path / "macro.odt", marker)
    dest = tmp_path / "macro.pdf"

    to_pdf(str(path), detect(str(path)), str(dest), Limits(), office=office_pool)

    assert "A document with a macro" in pdf_text(dest)
    assert not marker.exists()
