"""The README's command-line example, run as written against a live service:
only its address is the test's own; outputs read back with poppler."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from docx import Document as Docx

from tests.conftest import make_pdf_bytes
from tests.live import ROOT, live_service
from tests.orders.helpers import pdftotext_pages

README_BASE = "http://127.0.0.1:8761"


def cli_script() -> str:
    section = (
        (ROOT / "README.md")
        .read_text()
        .split("\n## Command line and Python client", 1)[1]
    )
    section = section.split("\n## ", 1)[0]
    (script,) = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return script


@pytest.mark.django_db(transaction=True)
def test_the_readme_command_line_example_works_as_written(tmp_path: Path) -> None:
    script = cli_script()
    assert README_BASE in script
    (tmp_path / "paper.pdf").write_bytes(
        make_pdf_bytes(["Offer from Acme Corp", "Terms agreed with Acme"])
    )
    letter = Docx()
    letter.add_paragraph("Covering letter for the northern office")
    buffer = io.BytesIO()
    letter.save(buffer)
    (tmp_path / "letter.docx").write_bytes(buffer.getvalue())
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"]}
    with live_service(tmp_path / "service") as live:
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script.replace(README_BASE, live.base)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "page 1" in done.stdout  # the search names the hit's page
    redacted = pdftotext_pages(tmp_path / "paper-redacted.pdf")
    assert redacted == ["Offer from Corp", "Terms agreed with"]
    pack = pdftotext_pages(tmp_path / "pack.pdf")
    assert "Covering letter" in pack[0] and pack[1:] == redacted
    assert "northern office" in pdftotext_pages(tmp_path / "letter.pdf")[0]
