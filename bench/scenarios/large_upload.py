"""9. Upload of a 200 MB PDF: the web worker's peak RSS during the upload.

The peak is the VmHWM of the gunicorn workers, reset before each upload; the
baseline is the worker's RSS just before it (what it holds anyway). A second row
times the upload against a plain file copy of the same bytes.
"""

from __future__ import annotations

import shutil
import time

from bench.context import Context
from bench.measure import Goal, Row, median, timed

NUMBER = "9"
GOAL = Goal("service", "<", 150)


def run(ctx: Context) -> list[Row]:
    megabytes = 5 if ctx.smoke else 200
    path = ctx.inputs.large(megabytes)
    size_mb = path.stat().st_size / 2**20
    copy = ctx.out("large-copy.pdf")
    peaks: list[float] = []
    idle: list[float] = []
    upload_s: list[float] = []
    copy_s: list[float] = []
    for _ in range(ctx.runs):
        idle.append(ctx.service.rss_mb())
        with ctx.service.peak_memory() as peak:
            start = time.perf_counter()
            doc_id = ctx.client.upload(path)
            upload_s.append(time.perf_counter() - start)
        peaks.append(peak.peak_mb)
        ctx.client.delete(doc_id)
        copy_s.append(timed(lambda: shutil.copyfile(path, copy)))
        copy.unlink()
    name = f"upload of a {size_mb:.0f} MB PDF"
    return [
        Row(
            NUMBER,
            name + ", peak RSS of the web worker",
            "MB",
            median(peaks),
            median(idle),
            GOAL,
            ctx.runs,
            baseline_label="the worker's RSS before the upload",
            notes={
                "peaks_mb": peaks,
                "idle_mb": idle,
                "growth_mb": [p - i for p, i in zip(peaks, idle, strict=True)],
            },
        ),
        Row(
            NUMBER,
            name + ", seconds",
            "s",
            median(upload_s),
            median(copy_s),
            None,
            ctx.runs,
            baseline_label="shutil.copyfile of the file",
            notes={"service_mb_per_s": size_mb / median(upload_s)},
        ),
    ]
