"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pymupdf
import pytest

from tests import corpus as corpus_module


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not corpus_module.available():
        pytest.skip(corpus_module.ABSENT_REASON)
    return corpus_module.CORPUS


@pytest.fixture(scope="session")
def facts(corpus: Path) -> dict[str, Any]:
    return corpus_module.facts()


@pytest.fixture(autouse=True)
def _stop_order_listener() -> Iterator[None]:
    """A long poll starts a listener holding a connection to the test database: close it
    after each test, or the test database cannot be dropped."""
    yield
    from jobs.notify import listener

    listener.stop()


class _SideConnection:
    """A connection of its own to the test database, outside every test's
    transaction (it sees only what was committed); opened again when a test
    that breaks connections (a database outage) closed it."""

    def __init__(self, params: dict[str, Any]) -> None:
        self._params = params
        self._conn: Any = None

    def committed(self, table: str) -> list[str]:
        """The ids of `table`'s committed rows, which are then deleted."""
        import psycopg

        for attempt in (1, 2):
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = psycopg.connect(autocommit=True, **self._params)
                ids = [row[0] for row in self._conn.execute(f"SELECT id FROM {table}")]
                if ids:
                    self._conn.execute(f"DELETE FROM {table} WHERE id = ANY(%s)", [ids])
                return ids
            except psycopg.OperationalError:
                self.close()
                if attempt == 2:
                    raise
        return []

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


@pytest.fixture(scope="session")
def _side_connection(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[_SideConnection]:
    from django.db import connections

    with django_db_blocker.unblock():
        params = connections["default"].get_connection_params()
    side = _SideConnection({k: v for k, v in params.items() if k in _LIBPQ})
    yield side
    side.close()


_LIBPQ = ("dbname", "user", "password", "host", "port", "sslmode", "connect_timeout")


@pytest.fixture(autouse=True)
def _nothing_committed_outside_the_test(
    request: pytest.FixtureRequest,
) -> Iterator[None]:
    """A test inside a transaction that commits an order anyway (a thread on a
    connection of its own, a connection reset mid-test) would leave it to every
    later test: that test is named here and the rows removed."""
    marker = request.node.get_closest_marker("django_db")
    if (
        marker is None
        or marker.kwargs.get("transaction")
        or not _uses_django_path(str(request.node.fspath))
    ):
        yield
        return
    side = request.getfixturevalue("_side_connection")
    yield
    leaked = side.committed("orders_transformationorder")
    if leaked:
        pytest.fail(f"committed outside the test's transaction: orders {leaked}")


@pytest.fixture(autouse=True)
def _data_dir(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """Every test stores its files under its own tmp_path (paperless idiom)."""
    if not _uses_django_path(str(request.node.fspath)):
        return
    settings = request.getfixturevalue("settings")
    settings.DATA_DIR = tmp_path / "data"
    settings.MEDIA_ROOT = tmp_path / "data" / "files"
    # Rows cached by an earlier test would outlive its rolled-back database.
    from documents import readcache

    readcache.forget_all()


def make_pdf_bytes(
    pages: list[str] | int,
    *,
    prefix: str = "page",
    size: tuple[float, float] = (595, 842),
    rotate: int = 0,
) -> bytes:
    """A small PDF whose page n (from 1) reads "<prefix> <n>" or the given texts."""
    texts = (
        [f"{prefix} {n}" for n in range(1, pages + 1)]
        if isinstance(pages, int)
        else pages
    )
    doc = pymupdf.open()
    for text in texts:
        page = doc.new_page(width=size[0], height=size[1])
        page.insert_text((72, 100), text, fontsize=14)
        if rotate:
            page.set_rotation(rotate)
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


@pytest.fixture
def make_pdf() -> Callable[..., bytes]:
    return make_pdf_bytes


def doc_url(document_id: str, suffix: str = "", **query: Any) -> str:
    url = "/documents/" + quote(document_id, safe="") + suffix
    return url + ("?" + urlencode(query) if query else "")


@pytest.fixture
def upload(client: Any) -> Callable[..., Any]:
    """POST /documents with raw bytes; returns the response."""

    def _upload(data: bytes, **query: Any) -> Any:
        url = "/documents" + ("?" + urlencode(query) if query else "")
        return client.post(url, data=data, content_type="application/octet-stream")

    return _upload


@pytest.fixture
def uploaded(upload: Callable[..., Any]) -> Callable[..., str]:
    """Upload and return the new document id (asserting success)."""

    def _uploaded(data: bytes, **query: Any) -> str:
        response = upload(data, **query)
        assert response.status_code == 200, response.content
        return response.json()["id"]

    return _uploaded


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests outside tests/pdf, tests/ocr and tests/convert (the pure engines) talk
    to PostgreSQL."""
    for item in items:
        if _uses_django_path(str(item.fspath)) and not item.get_closest_marker(
            "django_db"
        ):
            item.add_marker(pytest.mark.django_db)


# The pure engines are tested without Django's database or settings.
_ENGINE_TESTS = ("tests/pdf/", "tests/ocr/", "tests/convert/")


def _uses_django_path(path: str) -> bool:
    path = path.replace("\\", "/")
    return not any(part in path for part in _ENGINE_TESTS)


@pytest.fixture
def run_order(
    client: Any, django_capture_on_commit_callbacks: Any
) -> Callable[..., Any]:
    """POST /transformations, let the (sync) worker run it on commit, and return the
    order as GET shows it."""

    def _run(body: dict[str, Any]) -> dict[str, Any]:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                "/transformations", data=body, content_type="application/json"
            )
        assert response.status_code == 200, response.content
        order_id = response.json()["transformationOrderId"]["id"]
        assert response["Location"] == f"/transformations/{order_id}"
        return client.get(f"/transformations/{order_id}").json()

    return _run


@pytest.fixture
def convert_upload(
    client: Any, django_capture_on_commit_callbacks: Any
) -> Callable[..., Any]:
    """POST /documents, letting the worker (sync in tests) convert it at once;
    returns the response."""

    def _upload(data: bytes, **query: Any) -> Any:
        url = "/documents" + ("?" + urlencode(query) if query else "")
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(url, data=data, content_type="application/octet-stream")

    return _upload


@pytest.fixture
def converted(convert_upload: Callable[..., Any]) -> Callable[..., str]:
    def _converted(data: bytes, **query: Any) -> str:
        response = convert_upload(data, **query)
        assert response.status_code == 200, response.content
        return str(response.json()["id"])

    return _converted


@pytest.fixture
def pages_with(client: Any) -> Callable[[str, str], list[int]]:
    """The pages of a document where `word` is found (GET .../pages)."""

    def _pages(document_id: str, word: str) -> list[int]:
        response = client.get(doc_url(document_id, "/pages", searchText=word))
        assert response.status_code == 200, response.content
        return list(response.json()["pageList"])

    return _pages
