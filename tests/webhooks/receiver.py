"""A webhook receiver for tests: a threaded HTTP server on a loopback address
that records every request and answers from a script."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    host: str = "127.0.0.1"
    # Statuses answered in turn (the last one repeats); "307 <url>" redirects.
    script: list[str] = field(default_factory=lambda: ["200"])
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                owner.received.append(
                    Received(self.path, dict(self.headers), self.rfile.read(length))
                )
                n = len(owner.received) - 1
                answer = owner.script[min(n, len(owner.script) - 1)]
                status, _, location = answer.partition(" ")
                body = f"answer {n + 1}".encode()
                self.send_response(int(status))
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((self.host, 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://{self.host}:{self.server.server_address[1]}/hook"
        threading.Thread(
            target=self.server.serve_forever,
            kwargs={"poll_interval": 0.05},
            daemon=True,
        ).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
