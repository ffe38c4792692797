"""What every kind of order has (a state, timestamps, an error, an owner, the facts
reports count), the documents each order took, refused order requests, and the
workers' heartbeats. The order models themselves belong to their apps."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from jobs.states import State

_M = TypeVar("_M", bound=models.Model)

# Columns the dashboard and the report queries read by queued time: the index on
# queued_at carries them, so those aggregates are index-only scans.
REPORT_COLUMNS = (
    "state",
    "started_at",
    "processed_at",
    "deleted_at",
    "owner",
    "error_category",
    "input_pages",
    "input_bytes",
    "page_count",
    "output_bytes",
)


def report_indexes(*extra: str) -> list[models.Index]:
    """The indexes every kind of order needs for reports: time ranges on queued_at
    (covering `REPORT_COLUMNS` and the kind's `extra` columns, e.g. its format)
    and on processed_at. A kind that declares its own `Meta.indexes` starts from
    these: `indexes = [*report_indexes("format"), ...]`."""
    return [
        models.Index(
            fields=["queued_at"],
            include=[*REPORT_COLUMNS, *extra],
            name="%(app_label)s_%(class)s_rq",  # at most 30 characters
        ),
        models.Index(fields=["processed_at"]),
        # Deleted orders (a few percent), listed by the admin newest first.
        models.Index(
            fields=["queued_at"],
            condition=models.Q(deleted_at__isnull=False),
            name="%(app_label)s_%(class)s_rd",
        ),
        models.Index(fields=["state"]),
        models.Index(fields=["state", "started_at"]),
        # Queue depth and the oldest queued order, read at every /metrics scrape.
        models.Index(fields=["state", "queued_at"]),
    ]


class LiveOrders(models.Manager[_M]):
    """Orders that were not deleted: all the API, the workers and the admin see."""

    def get_queryset(self) -> models.QuerySet[_M]:
        return super().get_queryset().filter(deleted_at__isnull=True)


class OrderBase(models.Model):
    """An order of any kind. Deleting one through the API or the admin marks it
    (`deleted_at`) instead of removing its row: it is gone for every reader of
    `objects`, and its report row stays (`history` sees every order ever made)."""

    id = models.CharField(primary_key=True, max_length=64)
    state = models.CharField(max_length=12, choices=State.choices, default=State.QUEUED)
    error_message = models.TextField(null=True, blank=True)
    # What kind of failure (jobs.errors.Category), set with error_message.
    error_category = models.CharField(max_length=24, null=True, blank=True)
    queued_at = models.DateTimeField(default=timezone.now)
    # When its task was last pushed to the broker again because the broker had
    # lost it (jobs.dispatch); null: only the push that followed its commit.
    dispatched_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Facts for reports: the inputs' pages taken and bytes, set when the order is
    # created (with its OrderInput rows); the output's, set when it ends.
    input_pages = models.PositiveIntegerField(null=True, blank=True)
    input_bytes = models.BigIntegerField(null=True, blank=True)
    page_count = models.PositiveIntegerField(null=True, blank=True)
    output_bytes = models.BigIntegerField(null=True, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="%(class)s_set",
    )
    # Where the order is POSTed when it ends (webhooks): as sent, or the default
    # of the API key that created it.
    callback_url = models.URLField(max_length=2048, null=True, blank=True)
    # The failed order this one repeats (made by the admin's retry).
    retry_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="retries",
    )
    # Set when the order is deleted (cancelled if it had not ended).
    deleted_at = models.DateTimeField(null=True, blank=True)

    # Fields a worker fills, cleared when the order is retried; every foreign key
    # to a document is one as well (see jobs.services.order_retry).
    result_fields: ClassVar[tuple[str, ...]] = ()

    objects = LiveOrders()
    history = models.Manager()  # noqa: DJ012 (a manager, which ruff takes for a field)

    class Meta:
        abstract = True
        ordering = ["-queued_at"]
        indexes = report_indexes()

    @property
    def queued_ms(self) -> int | None:
        """Milliseconds from queued to picked up by a worker (to now while queued)."""
        end = self.started_at or (None if self.processed_at else timezone.now())
        if end is None:
            return None
        return max(0, int((end - self.queued_at).total_seconds() * 1000))

    @property
    def processing_ms(self) -> int | None:
        """Milliseconds from picked up to ended (to now while processing)."""
        if self.started_at is None:
            return None
        end = self.processed_at or timezone.now()
        return max(0, int((end - self.started_at).total_seconds() * 1000))

    def id_suffix(self) -> str:
        """What the kind's order ids end with (`-<suffix>`), if anything."""
        return ""

    @property
    def is_cancelled(self) -> bool:
        """Deleted before it ended (what the report views call CANCELLED)."""
        return self.deleted_at is not None and self.processed_at is None


class OrderInput(models.Model):
    """One row per order × input document: the pages it took, the document's size
    then. Plain ids, no foreign keys: the row outlives both the order and the
    document, so reports can say what was used even after they are deleted."""

    kind = models.CharField(max_length=40)  # jobs.registry name: "transformation"
    order_id = models.CharField(max_length=64)
    document_id = models.CharField(max_length=512)
    # Where the document first appears in the order, from 0 (comparisons: 0 left).
    position = models.PositiveSmallIntegerField(default=0)
    pages = models.PositiveIntegerField(null=True, blank=True)
    bytes = models.BigIntegerField(null=True, blank=True)
    queued_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "order_id", "document_id"], name="order_input_once"
            )
        ]
        indexes = [
            models.Index(fields=["document_id", "queued_at"]),
            models.Index(
                fields=["queued_at"],
                include=["document_id", "pages", "bytes"],
                name="jobs_orderinput_queued",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.order_id} ← {self.document_id}"


class OrderRefusal(models.Model):
    """A request to create an order that was answered 4xx (jobs.refusals), kept so
    reports count refused work too. Written beside the answer, never failing it."""

    kind = models.CharField(max_length=40)
    status = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=40)  # jobs.refusals.Reason
    field = models.CharField(max_length=200, blank=True, default="")
    detail = models.CharField(max_length=300, blank=True, default="")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    refused_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.kind} refused {self.status} ({self.reason})"


class DaySummary(models.Model):
    """What the dashboard needs of one kind's orders queued on one closed day (UTC):
    counts by state, pages and bytes, failures by category, orders by owner, and
    histograms of queued and processing time by format (jobs.dashboard.rollup).
    Made once, from the report index, an hour after the day ends; the dashboard
    then reads a row per day instead of every order of the window."""

    kind = models.CharField(max_length=40)
    day = models.DateField()
    data = models.JSONField()
    made_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "day"], name="day_summary_once")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.day}"


class WorkerHeartbeat(models.Model):
    """Last sign of life of each django-q2 worker process (read by /ready)."""

    name = models.CharField(primary_key=True, max_length=200)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} @ {self.seen_at:%H:%M:%S}"
