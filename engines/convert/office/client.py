"""The pool's side of an instance: XML-RPC over the instance's Unix socket.

The worker's Python (the project's venv) has no `uno`; it only speaks
XML-RPC to the server (`server.py`), which runs with the system Python.
"""

from __future__ import annotations

import http.client
import socket
import xmlrpc.client
from typing import Any

# XML-RPC fault codes of server.py (which cannot import this module).
FAULT_LOAD = 2  # LibreOffice could not open the document
FAULT_CONVERT = 3  # it opened it but failed to export it


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(self._path)
        except OSError:
            sock.close()
            raise
        self.sock = sock


class _UnixTransport(xmlrpc.client.Transport):
    def __init__(self, path: str, timeout: float) -> None:
        super().__init__()
        self._path = path
        self._timeout = timeout

    def make_connection(self, host: Any) -> http.client.HTTPConnection:
        return _UnixConnection(self._path, self._timeout)


def server_proxy(path: str, timeout: float) -> xmlrpc.client.ServerProxy:
    """A proxy for the server listening at the Unix socket `path`; calls
    fail with `OSError` (socket.timeout among them) after `timeout` s."""
    return xmlrpc.client.ServerProxy(
        "http://localhost/",
        transport=_UnixTransport(path, timeout),
        allow_none=True,
    )
