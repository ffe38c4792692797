"""How the multi-step commands tell what they are doing: a `Watcher` receives
notes ("uploading a.pdf") and every poll of an order; `Silent` ignores both."""

from __future__ import annotations

from typing import Protocol

from transformsvc_client.shapes import Order


class Watcher(Protocol):
    def note(self, text: str) -> None: ...

    def order(self, order: Order) -> None: ...


class Silent:
    def note(self, text: str) -> None:
        pass

    def order(self, order: Order) -> None:
        pass
