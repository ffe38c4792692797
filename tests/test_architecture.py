"""The shape of the code, checked: every claim of the README's Layout section.

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
    "connectors",
    "webhooks",
    "idempotency",
)
ORDER_APPS = ("orders", "comparisons", "conversions")
CLIENT = "transformsvc_client"
PACKAGES = ("transformsvc", "engines", *APPS, CLIENT)
# Engines: a library of pure modules with no Django, importing no app.
ENGINES = "engines"
MAX_LINES = 400


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
    # The engines are a library, not an app: their errors are mapped here.
    assert _package_graph()["transformsvc"] <= {"engines"}


def test_jobs_imports_no_order_app_and_no_documents() -> None:
    allowed = {"accounts", "transformsvc", "engines", "idempotency"}
    assert _package_graph()["jobs"] <= allowed


def test_order_apps_do_not_import_each_other() -> None:
    graph = _package_graph()
    for app in ORDER_APPS:
        assert not graph[app] & (set(ORDER_APPS) - {app}), app


def test_the_client_imports_nothing_of_the_service() -> None:
    # It is installed on machines that run no service: the HTTP API is its only
    # tie to it.
    assert _package_graph()[CLIENT] == set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _reaches(
    graph: dict[str, set[str]],
    start: str,
    goal: str,
    seen: frozenset[str] = frozenset(),
) -> bool:
    return any(
        nxt == goal or (nxt not in seen and _reaches(graph, nxt, goal, seen | {nxt}))
        for nxt in graph.get(start, ())
    )


def _cycles_inside(package_modules: dict[str, set[str]]) -> dict[str, list[str]]:
    """Per package at any depth, its children that reach themselves through the
    imports among its children (`engines.pdf`: redact -> text -> redact)."""
    prefixes = {
        ".".join(name.split(".")[:i])
        for name in package_modules
        for i in range(1, len(name.split(".")))
    }
    found: dict[str, list[str]] = {}
    for prefix in sorted(prefixes):
        depth = prefix.count(".") + 1
        graph: dict[str, set[str]] = defaultdict(set)
        for name, imported in package_modules.items():
            if not name.startswith(prefix + "."):
                continue
            child = name.split(".")[depth]
            for other in imported:
                parts = other.split(".")
                if other.startswith(prefix + ".") and parts[depth] != child:
                    graph[child].add(parts[depth])

        cyclic = sorted(c for c in list(graph) if _reaches(graph, c, c))
        if cyclic:
            found[prefix] = cyclic
    return found


def test_no_import_cycle_between_the_parts_of_any_package() -> None:
    package_modules = {
        _module_name(path): _imports(path)
        for package in PACKAGES
        for path in _modules(package)
    }
    assert _cycles_inside(package_modules) == {}


def test_the_cycle_check_sees_a_cycle_between_sub_packages() -> None:
    assert _cycles_inside(
        {"p.a.x": {"p.b.y"}, "p.b.y": {"p.a.z"}, "p.a.z": set(), "p.c": {"p.a"}}
    ) == {"p": ["a", "b"]}


def test_no_import_cycle_between_top_level_packages() -> None:
    graph = _package_graph()

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
            for nxt in graph.get(start, ())
        )

    cycles = [p for p in PACKAGES if reaches(p, p)]
    assert cycles == [], {p: sorted(graph[p]) for p in cycles}


def test_engines_import_no_django_and_no_app() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            name
            for name in _imports(path)
            if _top(name) in {"django", "rest_framework", "django_q"}
            or (_top(name) in PACKAGES and _top(name) != ENGINES)
        )
        for path in _modules(ENGINES)
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


def test_the_redaction_check_shares_no_code_with_the_redaction() -> None:
    """engines/verify reads a redacted output its own way: it imports nothing
    from engines.pdf.redact, which imports nothing from it (the caller, the
    annotation engine, hands one's result to the other)."""

    def offenders(package: str, forbidden: str) -> dict[str, list[str]]:
        found = {
            str(path.relative_to(ROOT)): sorted(
                name
                for name in _imports(path)
                if name == forbidden or name.startswith(forbidden + ".")
            )
            for path in _modules(package)
        }
        return {k: v for k, v in found.items() if v}

    assert offenders("engines/verify", "engines.pdf.redact") == {}
    assert offenders("engines/verify", "engines.pdf") == {}
    assert offenders("engines/pdf/redact", "engines.verify") == {}
