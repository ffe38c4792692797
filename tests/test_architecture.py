"""The shape of the code, checked: which package may import which, module sizes.

Read from the source with `ast` (imports inside functions count too), so that a
lazy import cannot hide a dependency.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "accounts",
    "jobs",
    "ops",
    "documents",
    "orders",
    "comparisons",
    "conversions",
    "annotations",
    "webhooks",
    "idempotency",
)
ORDER_APPS = ("orders", "comparisons", "conversions")
PACKAGES = ("transformsvc", *APPS)
# Engines: pure modules with no Django, importing no app (documents.pdf, ...).
ENGINES = ("documents/pdf",)
MAX_LINES = 420


def _modules(package: str) -> list[Path]:
    return sorted(
        p for p in (ROOT / package).rglob("*.py") if "migrations" not in p.parts
    )


def _imports(path: Path) -> set[str]:
    """Every module `path` imports, absolute names, at any depth of the file."""
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _top(name: str) -> str:
    return name.split(".", 1)[0]


def _package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for package in PACKAGES:
        for path in _modules(package):
            for name in _imports(path):
                if _top(name) in PACKAGES and _top(name) != package:
                    graph[package].add(_top(name))
    return graph


def test_the_project_package_imports_no_app() -> None:
    assert _package_graph()["transformsvc"] == set()


def test_jobs_imports_no_order_app_and_no_documents() -> None:
    assert _package_graph()["jobs"] <= {"accounts", "transformsvc"}


def test_order_apps_do_not_import_each_other() -> None:
    graph = _package_graph()
    for app in ORDER_APPS:
        assert not graph[app] & (set(ORDER_APPS) - {app}), app


def test_no_import_cycle_between_top_level_packages() -> None:
    graph = _package_graph()

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
            for nxt in graph[start]
        )

    cycles = [p for p in PACKAGES if reaches(p, p)]
    assert cycles == [], {p: sorted(graph[p]) for p in cycles}


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_import_no_django_and_no_app(engine: str) -> None:
    dotted = engine.replace("/", ".")
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            name
            for name in _imports(path)
            if _top(name) in {"django", "rest_framework", "django_q"}
            or (_top(name) in PACKAGES and not name.startswith(dotted))
        )
        for path in _modules(engine)
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_no_module_of_the_service_grows_past_about_400_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for package in (*PACKAGES, "bench")
        for path in _modules(package)
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_a_web_process_does_not_load_the_libraries_of_rare_formats() -> None:
    """extract-msg (Outlook files) and pyHanko (FDF, signatures) are ~50 MB that
    each web and worker process would carry from its start; they load when a
    request needs them."""
    script = (
        "import sys, django; django.setup();"
        "from django.urls import resolve; resolve('/documents');"
        "import documents.views, annotations.services, documents.structure;"
        "print(sorted({m.split('.')[0] for m in sys.modules}"
        " & {'extract_msg', 'pyhanko', 'pyhanko_certvalidator'}))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "transformsvc.settings"}
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"
