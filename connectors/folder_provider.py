"""A REST provider that serves a local folder, speaking the original's provider
contract (its Provider API), so that /connector/documents works without an
ECM: run it, and name it in TRANSFORMSVC_CONNECTORS.

    python -m connectors.folder_provider --root /srv/documents --port 8787
    TRANSFORMSVC_CONNECTORS="files=http://127.0.0.1:8787|path"
    TRANSFORMSVC_CONNECTOR_DEFAULT=files

`GET /documents?path=<relative path>` answers a file (its type guessed from its
name, its name in `Content-Disposition`), or for a folder a JSON
`ProviderFolder` listing its files and sub-folders (hidden ones left out), each
file with the `parameters` that fetch it. A path that leaves the root (`..`, a
symbolic link pointing out) or names a hidden entry is a 403, a missing one a
404. The contract's annotation endpoints answer 501: annotations of documents
opened through a provider are kept in the service's own store.

A plain WSGI application with no dependency on the service (nor on Django):
another storage plugs in the same way, e.g. an S3 prefix whose `GET /documents?
key=` streams the object (boto3 or django-storages' S3 storage) and lists a
"directory" prefix as a ProviderFolder.
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any
from urllib.parse import parse_qs, quote
from wsgiref.simple_server import WSGIServer, make_server

StartResponse = Callable[[str, list[tuple[str, str]]], Any]
CHUNK = 256 * 1024


def make_app(
    root: str | Path,
) -> Callable[[dict[str, Any], StartResponse], Iterable[bytes]]:
    """The provider of the folder `root`, as a WSGI application."""
    base = Path(root).resolve()

    def app(environ: dict[str, Any], start: StartResponse) -> Iterable[bytes]:
        route = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return _status(start, "405 Method Not Allowed")
        if route.startswith("/annotations"):
            return _status(start, "501 Not Implemented")
        if route != "/documents":
            return _status(start, "404 Not Found")
        query = parse_qs(environ.get("QUERY_STRING", ""))
        wanted = (query.get("path") or [""])[0]
        target = _inside(base, wanted)
        if target is None:
            return _status(start, "403 Forbidden")
        if target.is_dir():
            return _json(start, _folder(base, target))
        if not target.is_file():
            return _status(start, "404 Not Found")
        return _file(start, target)

    return app


def _inside(base: Path, wanted: str) -> Path | None:
    """The entry `wanted` names under `base`; None when it leaves it or names a
    hidden entry (a part starting with a dot)."""
    parts = [p for p in wanted.replace("\\", "/").split("/") if p not in ("", ".")]
    if any(p.startswith(".") for p in parts):
        return None
    target = base.joinpath(*parts).resolve()
    if target != base and base not in target.parents:
        return None
    return target


def _folder(base: Path, folder: Path) -> dict[str, Any]:
    contents: list[dict[str, Any]] = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name.startswith("."):
            continue
        relative = entry.relative_to(base).as_posix()
        if entry.is_dir():
            contents.append(_folder(base, entry))
        elif entry.is_file():
            contents.append(
                {"type": "file", "name": entry.name, "parameters": {"path": relative}}
            )
    return {
        "type": "folder",
        "name": folder.name,
        "parameters": {"path": folder.relative_to(base).as_posix()},
        "contents": contents,
    }


def _file(start: StartResponse, path: Path) -> Iterator[bytes]:
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    start(
        "200 OK",
        [
            ("Content-Type", kind),
            ("Content-Length", str(path.stat().st_size)),
            ("Content-Disposition", f"attachment; filename*=UTF-8''{quote(path.name)}"),
        ],
    )
    with path.open("rb") as fh:
        while chunk := fh.read(CHUNK):
            yield chunk


def _json(start: StartResponse, body: dict[str, Any]) -> list[bytes]:
    data = json.dumps(body).encode()
    start(
        "200 OK",
        [("Content-Type", "application/json"), ("Content-Length", str(len(data)))],
    )
    return [data]


def _status(start: StartResponse, status: str) -> list[bytes]:
    start(status, [("Content-Type", "text/plain"), ("Content-Length", "0")])
    return [b""]


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a folder as a REST provider")
    parser.add_argument("--root", default=os.getcwd(), help="the folder to serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8787)
    args = parser.parse_args(argv)
    with make_server(
        args.host, args.port, make_app(args.root), ThreadingServer
    ) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
