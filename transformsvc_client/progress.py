"""Progress of the command line's long steps, on stderr: notes as lines, and
each order's state with its queued and processing times. On a terminal the order
line is rewritten in place; in a log, a line is written when the state changes
and at most every `LOG_EVERY` seconds in between."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from transformsvc_client.shapes import Order

LOG_EVERY = 10.0


def describe(order: Order) -> str:
    """`transformation 3f2a…: PROCESSING (queued 0.1 s, processing 4.2 s)`."""
    times = [
        f"{label} {ms / 1000:.1f} s"
        for label, ms in (
            ("queued", order.queued_ms),
            ("processing", order.processing_ms),
        )
        if ms is not None
    ]
    text = f"{order.kind} {order.id}: {order.state}"
    return text + (f" ({', '.join(times)})" if times else "")


class StderrProgress:
    def __init__(self, stream: TextIO | None = None, *, quiet: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.live = self.stream.isatty()
        self._open_line = False
        self._last: tuple[str, str] | None = None
        self._last_at = 0.0

    def note(self, text: str) -> None:
        if self.quiet:
            return
        self._end_line()
        print(text, file=self.stream, flush=True)

    def order(self, order: Order) -> None:
        if self.quiet:
            return
        line = describe(order)
        if self.live:
            self.stream.write("\r\033[K" + line)
            self._open_line = True
            if order.done:
                self._end_line()
            self.stream.flush()
            return
        now = time.monotonic()
        key = (order.id, order.state)
        if key != self._last or now - self._last_at >= LOG_EVERY:
            print(line, file=self.stream, flush=True)
            self._last, self._last_at = key, now

    def _end_line(self) -> None:
        if self._open_line:
            self.stream.write("\n")
            self._open_line = False
