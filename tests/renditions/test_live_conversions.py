"""Conversions on the real worker: gunicorn and a qcluster whose worker process
keeps its LibreOffice pool warm; readers wait for the conversion; nothing the
document links to is fetched; nothing is left running once the service stops."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.convert import hostile
from tests.convert.files import make_docx
from tests.convert.helpers import leftovers, recording_server, tree
from tests.live import live_service
from tests.ops.metricstext import value


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_a_word_file_converts_on_the_worker_and_links_stay_unfetched(
    tmp_path: Path,
) -> None:
    with recording_server() as remote, live_service(tmp_path / "live") as service:
        linked = hostile.docx_with_remote_content(tmp_path / "l.docx", remote.url(""))
        plain = make_docx(tmp_path / "p.docx", ["The harbour seal is grey."])
        doc_ids = [service.upload(p.read_bytes()) for p in (plain, linked)]
        started = time.monotonic()
        # Asked at once: the layout waits for the worker's conversion.
        layout = service.get(f"/documents/{doc_ids[0]}/layout").json()
        assert layout["pageDimensionsList"], layout
        search = service.get(
            f"/documents/{doc_ids[0]}/pages/0/text", params={"searchText": "harbour"}
        ).json()
        assert len(search["searchResults"]) == 1
        linked_layout = service.get(f"/documents/{doc_ids[1]}/layout").json()
        assert linked_layout["pageDimensionsList"], linked_layout
        assert time.monotonic() - started < 60
        assert remote.requests == [], "a conversion fetched what the document links to"
        processes = tree(service.processes["worker"].pid)
        office = [pid for pid in processes if "soffice.bin" in _command(pid)]
        assert office, "the worker keeps its LibreOffice instance warm"
    deadline = time.monotonic() + 20
    while leftovers(processes, "\0no marker\0") and time.monotonic() < deadline:
        time.sleep(0.5)
    assert leftovers(processes, "\0no marker\0") == [], "processes outlived the worker"


def _offices(pids: list[int]) -> list[int]:
    """The LibreOffice processes themselves among `pids` (not the wrappers
    whose command lines name soffice.bin)."""
    return sorted(
        pid for pid in pids if _command(pid).split(" ")[0].endswith("soffice.bin")
    )


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_each_worker_starts_its_pool_as_it_starts(tmp_path: Path) -> None:
    """The default: no conversion pays for starting LibreOffice."""
    env = {"TRANSFORMSVC_OFFICE_POOL_START": "spawn"}
    with live_service(tmp_path / "live", workers=2, extra_env=env) as service:
        deadline = time.monotonic() + 30
        running = 0.0
        while running != 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            running = value(
                service.get("/metrics").text, "transformsvc_conversion_pool_instances"
            )
        assert running == 2, "each of the 2 workers has its instance before any upload"
        office = _offices(tree(service.processes["worker"].pid))
        assert len(office) == 2, office
        plain = make_docx(tmp_path / "p.docx", ["The harbour seal is grey."])
        doc_id = service.upload(plain.read_bytes())
        search = service.get(
            f"/documents/{doc_id}/pages/0/text", params={"searchText": "seal"}
        ).json()
        assert len(search["searchResults"]) == 1
        assert _offices(tree(service.processes["worker"].pid)) == office, (
            "the conversion used the started instances, none was added"
        )
