"""What every scenario gets: the running service, a client, inputs, run counts."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from bench.client import Client, element, order_body
from bench.inputs import Inputs
from bench.service import Service


def log(message: str) -> None:
    sys.stderr.write(f"[bench {time.strftime('%H:%M:%S')}] {message}\n")
    sys.stderr.flush()


@dataclass
class Context:
    service: Service
    client: Client
    inputs: Inputs
    scratch: Path
    runs: int
    smoke: bool
    log: Callable[[str], None] = log
    uploaded: dict[Path, str] = field(default_factory=dict)

    def upload_once(self, path: Path) -> str:
        """The id of `path` uploaded in this service's database (uploaded on first use)."""
        if path not in self.uploaded:
            self.uploaded[path] = self.client.upload(path, title=path.stem)
        return self.uploaded[path]

    def out(self, name: str) -> Path:
        self.scratch.mkdir(parents=True, exist_ok=True)
        return self.scratch / name

    @property
    def warmup(self) -> int:
        """Untimed rounds before the timed ones (none in a smoke run)."""
        return 0 if self.smoke else 1

    def many(self, full: int, smoke: int) -> int:
        """A count: `full` in a real run (at least the requested runs), `smoke` in a smoke run."""
        return smoke if self.smoke else max(full, self.runs)


def warm_up(ctx: Context) -> None:
    """One tiny order to PROCESSED: the qcluster is up on this broker, imports are warm."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "warm up")
    doc_id = ctx.client.upload(doc.tobytes())
    doc.close()
    ctx.service.check_alive()
    order = ctx.client.wait(
        ctx.client.post_order(order_body([element(doc_id)])), timeout=120
    )
    ctx.client.download(order["transformationResultDocumentID"]["id"])


def page_count(path: Path) -> int:
    with pymupdf.open(path) as doc:
        return int(doc.page_count)
