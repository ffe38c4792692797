"""deploy/ checked offline: the container file parsed, the compose file read as
YAML and held against the settings, the systemd units run through
`systemd-analyze verify`. No container engine is needed (none runs here)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from dockerfile_parse import DockerfileParser

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
# Debian packages of install.sh that run beside the image, not in it.
# (the tests use them; Ghostscript is the optimize benchmark's baseline)
NOT_IN_IMAGE = {"redis-server", "mupdf-tools", "chromium", "ghostscript", "jq"}
# Read by libraries, not by settings.py: dj-database-url and boto3.
READ_BY_LIBRARIES = {"DATABASE_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"}


def settings_names() -> set[str]:
    """Every environment variable the service reads (settings and gunicorn)."""
    pattern = re.compile(
        r"(?:environ\.get|environ\[|env\.(?:text|integer|number|flag|items|choice|pairs))"
        r"\(?\s*"
        r"[\"']([A-Z][A-Z0-9_]+)[\"']"
    )
    names: set[str] = set()
    for path in (
        *(
            str(p.relative_to(ROOT))
            for p in (ROOT / "transformsvc/settings").glob("*.py")
        ),
        "transformsvc/conf.py",
        "transformsvc/gunicorn_conf.py",
        "transformsvc/paths.py",
    ):
        names.update(pattern.findall((ROOT / path).read_text()))
    return names | READ_BY_LIBRARIES


def install_sh_packages() -> set[str]:
    text = (ROOT / "transformsvc/scripts/install.sh").read_text()
    found = set(re.findall(r"missing\+=\(([^)]+)\)", text))
    found.update(re.findall(r"apt_install ([a-z0-9.+-]+)$", text, re.M))
    found.update(re.findall(r"^\w+_packages=\(([^)]+)\)", text, re.M))
    # Words made of shell variables ("$pkg") name packages listed elsewhere.
    return {p for item in found for p in item.split() if "$" not in p}


def image_packages(parser: DockerfileParser) -> set[str]:
    packages: set[str] = set()
    for instruction in parser.structure:
        if (
            instruction["instruction"] == "RUN"
            and "apt-get install" in instruction["value"]
        ):
            words = instruction["value"].replace("\\", " ").split()
            start = words.index("install") + 1
            for word in words[start:]:
                if word == "&&":
                    break
                if not word.startswith("-"):
                    packages.add(word)
    return packages


def pinned(image: str) -> bool:
    """A tag that names a version (never `latest`, never none)."""
    name, _, tag = image.rpartition(":")
    return (
        bool(name)
        and "/" not in tag
        and tag != "latest"
        and any(c.isdigit() for c in tag)
    )


def test_the_container_file_installs_what_install_sh_does_on_a_pinned_debian() -> None:
    parser = DockerfileParser(
        fileobj=io.BytesIO((DEPLOY / "Containerfile").read_bytes())
    )
    assert parser.baseimage.startswith("debian:") and pinned(parser.baseimage)
    missing = install_sh_packages() - NOT_IN_IMAGE - image_packages(parser)
    assert missing == set(), f"install.sh installs {missing}, the image does not"
    for needed in (
        "libreoffice-nogui",
        "python3-uno",
        "tesseract-ocr",
        "poppler-utils",
    ):
        assert needed in image_packages(parser)
    instructions = [i["instruction"] for i in parser.structure]
    assert "HEALTHCHECK" in instructions and "USER" in instructions
    copied = {
        i["value"].split()[0] for i in parser.structure if i["instruction"] == "COPY"
    }
    for source in copied:
        assert (ROOT / source).exists(), source
    apps = re.search(r"include = \[([^\]]+)\]", (ROOT / "pyproject.toml").read_text())
    assert apps is not None
    for app in re.findall(r'"(\w+)\*"', apps.group(1)):
        assert app in copied, f"the image leaves out {app}/"


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_compose_runs_web_worker_postgres_redis_and_s3_pinned_and_checked() -> None:
    services = compose()["services"]
    assert {"web", "worker", "postgres", "redis", "minio"} <= services.keys()
    for name, service in services.items():
        assert pinned(service["image"]), f"{name}: {service['image']} is not pinned"
        for needed in service.get("depends_on", {}):
            assert needed in services, f"{name} depends on unknown {needed}"
        if name != "bucket":  # a one-shot job
            assert service.get("healthcheck", {}).get("test"), f"{name}: no healthcheck"
    assert services["worker"]["image"] == services["web"]["image"]
    assert services["web"]["build"]["dockerfile"] == "deploy/Containerfile"
    # Scans are recognised by a cluster of their own, on the same image.
    ocr = services["ocr-worker"]
    assert ocr["image"] == services["web"]["image"]
    assert ocr["environment"]["TRANSFORMSVC_WORKER_QUEUE"] == "ocr"
    assert services["worker"]["environment"].get("TRANSFORMSVC_WORKER_QUEUE") in (
        None,
        "main",
    )


def test_compose_and_the_env_example_set_only_variables_the_service_reads() -> None:
    known = settings_names()
    services = compose()["services"]
    for name in ("web", "worker", "ocr-worker"):
        env = services[name]["environment"]
        assert set(env) - known == set(), name
        assert env["TRANSFORMSVC_STORAGE_BACKEND"].endswith("S3Storage")
        assert env["REDIS_URL"].startswith("redis://redis:")
        assert "postgres:5432" in env["DATABASE_URL"]
    example = (DEPLOY / "systemd/env.example").read_text().splitlines()
    names = {
        line.split("=", 1)[0] for line in example if "=" in line and line[0] != "#"
    }
    assert names - known == set()


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="no systemd-analyze"
)
@pytest.mark.parametrize(
    "unit",
    [
        "transformsvc-web.service",
        "transformsvc-worker.service",
        "transformsvc-ocr-worker.service",
    ],
)
def test_systemd_units_pass_systemd_analyze_verify(unit: str, tmp_path: Path) -> None:
    # verify checks that ExecStart programs exist: point the install prefix at
    # stand-ins, the rest of the unit is checked as written.
    prefix = tmp_path / "opt"
    for program in ("python", "gunicorn"):
        stand_in = prefix / ".venv/bin" / program
        stand_in.parent.mkdir(parents=True, exist_ok=True)
        stand_in.write_text("#!/bin/sh\n")
        stand_in.chmod(0o755)
    text = (DEPLOY / "systemd" / unit).read_text()
    (tmp_path / unit).write_text(text.replace("/opt/transformsvc", str(prefix)))
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(tmp_path / unit)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    complaints = [
        line for line in (result.stdout + result.stderr).splitlines() if line.strip()
    ]
    assert result.returncode == 0 and complaints == [], complaints
