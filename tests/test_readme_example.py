"""The README's Example section, run as written against a live service (gunicorn
and a worker, as `make run` starts them): only its address is the test's own."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import make_pdf_bytes
from tests.live import ROOT, live_service

README_BASE = "http://127.0.0.1:8761"


def example_script() -> str:
    section = (ROOT / "README.md").read_text().split("\n## Example", 1)[1]
    section = section.split("\n## ", 1)[0]
    (script,) = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return script


def json_values(text: str) -> list[Any]:
    """The JSON bodies curl printed one after the other (no newline between)."""
    decoder, values, at = json.JSONDecoder(), [], 0
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        value, at = decoder.raw_decode(text, at)
        values.append(value)
    return values


@pytest.mark.django_db(transaction=True)
def test_the_readme_example_works_as_written(tmp_path: Path) -> None:
    script = example_script()
    assert README_BASE in script
    (tmp_path / "paper.pdf").write_bytes(make_pdf_bytes(5))
    with live_service(tmp_path / "service") as live:
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script.replace(README_BASE, live.base)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        layout, created = json_values(done.stdout)
        assert len(layout["pageDimensionsList"]) == 5, layout
        assert "transformationOrderId" in created, created
        order = live.wait_until_final(created["transformationOrderId"]["id"])
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
