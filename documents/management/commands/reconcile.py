"""`manage.py reconcile [--dry-run]`: report (and repair) stored files without a
document row, rows whose file is gone, and stale temporary files."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from documents.reconcile import GRACE, reconcile


class Command(BaseCommand):
    help = (
        "Find stored files no document names (removed), documents whose file is "
        "gone (marked: readers are told) and stale temporary files (removed)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="report only, change nothing"
        )
        parser.add_argument(
            "--grace-minutes",
            type=float,
            default=GRACE.total_seconds() / 60,
            help="leave files and rows younger than this alone (default 60)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        drift = reconcile(
            dry_run=options["dry_run"],
            grace=timedelta(minutes=options["grace_minutes"]),
        )
        verb = "found" if options["dry_run"] else "repaired"
        self.stdout.write(
            f"files without rows: {len(drift.files_without_rows)} ({verb})"
        )
        for name in drift.files_without_rows:
            self.stdout.write(f"  {name}")
        self.stdout.write(
            f"rows without files: {len(drift.rows_without_files)} ({verb})"
        )
        for doc_id in drift.rows_without_files:
            self.stdout.write(f"  {doc_id}")
        self.stdout.write(f"temporary files: {len(drift.temporary_files)} ({verb})")
