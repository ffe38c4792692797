"""What the converter tests share: reading PDFs back, a local web server that
records every request (for SSRF tests), and processes left behind."""

from __future__ import annotations

import os
import subprocess
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pymupdf


def pdf_text(path: str | Path) -> str:
    """The PDF's text as pdftotext (poppler, not the engine's MuPDF) reads
    it, NFKC-folded (MuPDF's HTML layout writes ligatures: "ﬁ" -> "fi")."""
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    return unicodedata.normalize("NFKC", out)


def page_sizes(path: str | Path) -> list[tuple[float, float]]:
    with pymupdf.open(str(path)) as doc:
        return [(page.rect.width, page.rect.height) for page in doc]


class Recorder:
    """A web server on 127.0.0.1 that answers everything and remembers it."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                recorder.requests.append(self.path)
                body = b"<html><body>fetched</body></html>"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_POST = do_HEAD = do_OPTIONS = do_PROPFIND = do_GET  # noqa: N815

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path.lstrip('/')}"

    def __enter__(self) -> Recorder:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def recording_server() -> Iterator[Recorder]:
    with Recorder() as recorder:
        yield recorder


def leftovers(pids: list[int], marker: str) -> list[str]:
    """`ps` lines of processes still there that should not be: any of `pids`
    (an instance's tree, recorded before it was stopped), live or zombie;
    any process whose command line holds `marker` (a pool's directory); any
    zombie child of this test process."""
    lines = subprocess.run(
        ["ps", "-eo", "pid,ppid,stat,args"], capture_output=True, text=True, check=True
    ).stdout.splitlines()[1:]
    found = []
    for line in lines:
        fields = line.split(None, 3)
        if len(fields) < 4:
            continue
        pid, ppid, state, args = int(fields[0]), int(fields[1]), fields[2], fields[3]
        if pid == os.getpid() or "ps -eo" in args:
            continue
        ours = pid in pids or marker in args
        zombie_child = "Z" in state and ppid == os.getpid()
        if ours or zombie_child:
            found.append(line.strip())
    return found


def tree(pid: int) -> list[int]:
    """`pid` and its descendants."""
    from engines.convert.office.procs import descendants

    return [pid, *descendants(pid)]
