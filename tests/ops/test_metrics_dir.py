"""Where the metrics files live: off the data disk by default (a full data disk
must not kill the processes that map them), and a folder that cannot hold them
disables the shared metrics with a log line instead of a crash."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from transformsvc import paths


@pytest.fixture
def node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TRANSFORMSVC_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("TRANSFORMSVC_METRICS_DIR", raising=False)
    # Set, then removed: the variable prepare_metrics sets is undone afterwards
    # (monkeypatch forgets a variable it removed that was never there).
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "")
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR")
    return tmp_path


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="no /dev/shm here")
def test_metrics_default_to_memory_one_folder_per_data_directory(
    node: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = paths.metrics_root()
    assert first.parent == Path("/dev/shm")
    assert paths.metrics_root() == first  # the same node finds its files again
    monkeypatch.setenv("TRANSFORMSVC_DATA_DIR", str(node / "other"))
    assert paths.metrics_root() != first  # another node of the machine does not
    assert paths.metrics_root(node / "other") == paths.metrics_root()  # said so
    assert paths.data_dir() not in paths.metrics_root().parents


def test_the_operator_chooses_the_metrics_folder(
    node: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRANSFORMSVC_METRICS_DIR", str(node / "m"))
    assert paths.prepare_metrics("web") == node / "m" / "web"
    assert os.environ["PROMETHEUS_MULTIPROC_DIR"] == str(node / "m" / "web")
    assert (node / "m" / "web").is_dir()


def test_a_metrics_folder_without_room_disables_shared_metrics_with_a_log_line(
    node: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("TRANSFORMSVC_METRICS_DIR", str(node / "m"))
    # More than any disk here has free: the folder counts as full.
    monkeypatch.setattr(paths, "METRICS_MIN_FREE", 1 << 62)
    with caplog.at_level(logging.ERROR, logger="transformsvc.paths"):
        paths.prepare_metrics("worker")
    assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    assert "KiB free" in caplog.text


def test_a_metrics_folder_that_cannot_be_made_disables_shared_metrics(
    node: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    (node / "file").write_text("not a folder")
    monkeypatch.setenv("TRANSFORMSVC_METRICS_DIR", str(node / "file"))
    with caplog.at_level(logging.ERROR, logger="transformsvc.paths"):
        paths.prepare_metrics("web")
    assert "PROMETHEUS_MULTIPROC_DIR" not in os.environ
    assert "not shared" in caplog.text
