"""manage.py workeralive [--within S]: exit 0 when a worker process of this host
reported in the last S seconds (its heartbeat), else 1. For container and
service-manager health checks of the qcluster, which answers no HTTP."""

from __future__ import annotations

import socket
import sys
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from jobs.models import WorkerHeartbeat
from transformsvc.conf import service


class Command(BaseCommand):
    help = "Exit 0 if a worker of this host sent a heartbeat recently, else 1."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--within",
            type=float,
            default=service().worker_seen_within,
        )

    def handle(self, *args: Any, **options: Any) -> None:
        since = timezone.now() - timedelta(seconds=options["within"])
        alive = WorkerHeartbeat.objects.filter(
            name__startswith=f"{socket.gethostname()}:", seen_at__gte=since
        ).exists()
        self.stdout.write("alive" if alive else "no heartbeat")
        sys.exit(0 if alive else 1)
