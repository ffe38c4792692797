"""The service's own settings as one typed, frozen object (`settings.SERVICE`).

Every limit is an environment variable with a default (README, Settings); it is
read and checked once, when the settings load, so a bad value stops the process
at start with the variable's name instead of failing a request later. Code reads
`service().max_pages`, never a dict with casts. Tests change one value with
`settings.SERVICE = replace(settings.SERVICE, max_pages=50)`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

N = TypeVar("N", int, float)

FOIA_EXEMPTIONS = (
    "(b)(1)=Classified national security information"
    "|(b)(2)=Internal personnel rules and practices"
    "|(b)(3)=Information exempted by another statute"
    "|(b)(4)=Trade secrets and confidential commercial information"
    "|(b)(5)=Privileged inter- or intra-agency communications"
    "|(b)(6)=Personal privacy"
    "|(b)(7)=Law enforcement records"
    "|(b)(8)=Financial institution supervision"
    "|(b)(9)=Geological information on wells"
)

MiB = 1024 * 1024
GiB = 1024 * MiB


class Environ:
    """Typed reads of environment variables; a bad value names its variable."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = environ

    def text(self, name: str, default: str) -> str:
        return self.environ.get(name, default)

    def integer(self, name: str, default: int) -> int:
        return self._parsed(name, default, int, "a whole number")

    def number(self, name: str, default: float) -> float:
        return self._parsed(name, default, float, "a number")

    def _parsed(self, name: str, default: N, parse: Callable[[str], N], what: str) -> N:
        """The variable read by `parse`; `default` when unset or blank."""
        raw = self.environ.get(name)
        if raw is None or not raw.strip():
            return default
        try:
            return parse(raw)
        except ValueError:
            raise ImproperlyConfigured(f"{name} must be {what}, not {raw!r}") from None

    def flag(self, name: str, default: bool) -> bool:
        raw = self.environ.get(name)
        if raw is None or not raw.strip():
            return default
        return raw.strip().lower() in ("1", "true", "yes", "on")

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        value = self.environ.get(name, default).strip().lower()
        if value not in choices:
            raise ImproperlyConfigured(
                f"{name} must be one of {', '.join(choices)}, not {value!r}"
            )
        return value

    def items(self, name: str) -> tuple[str, ...]:
        raw = self.environ.get(name, "")
        return tuple(item.strip() for item in raw.split(",") if item.strip())

    def pairs(self, name: str, default: str) -> tuple[tuple[str, str], ...]:
        """`code=text|code=text` → ((code, text), ...)."""
        raw = self.environ.get(name, default)
        return tuple(
            (code.strip(), text.strip())
            for code, _, text in (item.partition("=") for item in raw.split("|"))
            if code.strip()
        )


@dataclass(frozen=True, slots=True)
class Service:
    """Sizes in bytes, times in seconds unless the name says otherwise."""

    type_prefix: str = "com.vendor.viewer"
    # Uploads and orders.
    max_upload_bytes: int = 512 * MiB
    max_pages: int = 20000
    max_elements: int = 500
    max_outputs: int = 100
    max_annotations: int = 10000
    regex_timeout: float = 1.0
    order_timeout: int = 600
    min_free_disk: int = 256 * MiB
    max_queued: int = 1000
    # A QUEUED order not taken this long, while workers idle and the broker holds
    # nothing, had its task lost: it is pushed again.
    queue_lease: float = 15.0
    long_poll_cap_ms: int = 60000
    # documentUrl: connect/read timeout, the whole fetch, its size, hosts that
    # may be private or loopback.
    url_timeout: float = 20.0
    url_deadline: float = 120.0
    url_max_bytes: int = 256 * MiB
    url_allowlist: tuple[str, ...] = ()
    # How long a reader of pages waits for a document being converted.
    rendition_wait: float = 60.0
    # Conversions (engines/convert).
    office_pool_size: int = 1
    office_pool_start: str = "spawn"
    conversion_timeout: float = 120.0
    office_max_rss_mb: int = 1024
    office_recycle_after: int = 200
    office_isolation: str = "auto"
    max_sheet_rows: int = 100_000
    max_text_bytes: int = 64 * MiB
    max_image_pixels: int = 200_000_000
    archive_max_entries: int = 1000
    archive_max_bytes: int = 2 * GiB
    archive_max_entry_bytes: int = GiB
    archive_max_ratio: int = 100
    container_max_depth: int = 3
    mail_max_attachments: int = 200
    # OCR (engines/ocr): auto, always or never; languages; the scan's own dpi
    # when ocr_dpi is 0.
    ocr: str = "auto"
    ocr_languages: tuple[str, ...] = ("eng", "fra", "deu", "spa", "ita", "por", "nld")
    ocr_detect_language: bool = True
    ocr_page_timeout: float = 60.0
    ocr_max_pixels: int = 25_000_000
    ocr_dpi: int = 0
    # Workers: seen alive within, heartbeat period, recovery grace.
    worker_seen_within: int = 30
    heartbeat_seconds: float = 10.0
    recovery_grace: int = 5
    redact_reasons: tuple[tuple[str, str], ...] = ()
    search_budget: float = 10.0
    search_max_results: int = 5000
    # How long a web process answers page reads of a final document from its
    # own copy of the row (documents/readcache.py); 0: always read the row.
    read_cache_seconds: float = 10.0
    file_cache_bytes: int = 2 * GiB
    # Webhooks: first retry, longest wait, give up after, one attempt's timeout,
    # how often workers look for retries coming due; the secret when auth is off.
    webhook_backoff: float = 30.0
    webhook_backoff_max: float = 4 * 3600.0
    webhook_give_up: float = 24 * 3600.0
    webhook_timeout: float = 10.0
    webhook_poll: float = 5.0
    webhook_secret: str = ""
    idempotency_ttl: int = 24 * 3600
    metrics_key: str = ""
    # Comparison orders name their documents by {id} objects (the original)
    # instead of strings (interface.md).
    comparison_id_objects: bool = False
    # REST providers of /connector/documents (connectors.conf reads the format)
    # and the one used when a request names none.
    connectors: str = ""
    connector_default: str = ""

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Service:
        env = Environ(environ)
        d = cls()

        languages = env.text("TRANSFORMSVC_OCR_LANGUAGES", "+".join(d.ocr_languages))
        return cls(
            type_prefix=env.text("TRANSFORMSVC_TYPE_PREFIX", d.type_prefix),
            max_upload_bytes=env.integer(
                "TRANSFORMSVC_MAX_UPLOAD_BYTES", d.max_upload_bytes
            ),
            max_pages=env.integer("TRANSFORMSVC_MAX_PAGES", d.max_pages),
            max_elements=env.integer("TRANSFORMSVC_MAX_ELEMENTS", d.max_elements),
            max_outputs=env.integer("TRANSFORMSVC_MAX_OUTPUTS", d.max_outputs),
            max_annotations=env.integer(
                "TRANSFORMSVC_MAX_ANNOTATIONS", d.max_annotations
            ),
            regex_timeout=env.number("TRANSFORMSVC_REGEX_TIMEOUT", d.regex_timeout),
            order_timeout=env.integer("TRANSFORMSVC_ORDER_TIMEOUT", d.order_timeout),
            min_free_disk=env.integer("TRANSFORMSVC_MIN_FREE_DISK", d.min_free_disk),
            max_queued=env.integer("TRANSFORMSVC_MAX_QUEUED", d.max_queued),
            queue_lease=env.number("TRANSFORMSVC_QUEUE_LEASE", d.queue_lease),
            url_timeout=env.number("TRANSFORMSVC_URL_TIMEOUT", d.url_timeout),
            url_deadline=env.number("TRANSFORMSVC_URL_DEADLINE", d.url_deadline),
            url_max_bytes=env.integer("TRANSFORMSVC_URL_MAX_BYTES", d.url_max_bytes),
            url_allowlist=env.items("TRANSFORMSVC_URL_ALLOWLIST"),
            rendition_wait=env.number("TRANSFORMSVC_RENDITION_WAIT", d.rendition_wait),
            office_pool_size=env.integer(
                "TRANSFORMSVC_OFFICE_POOL_SIZE", d.office_pool_size
            ),
            office_pool_start=env.choice(
                "TRANSFORMSVC_OFFICE_POOL_START",
                d.office_pool_start,
                ("spawn", "first-use"),
            ),
            conversion_timeout=env.number(
                "TRANSFORMSVC_CONVERSION_TIMEOUT", d.conversion_timeout
            ),
            office_max_rss_mb=env.integer(
                "TRANSFORMSVC_OFFICE_MAX_RSS_MB", d.office_max_rss_mb
            ),
            office_recycle_after=env.integer(
                "TRANSFORMSVC_OFFICE_RECYCLE_AFTER", d.office_recycle_after
            ),
            office_isolation=env.choice(
                "TRANSFORMSVC_OFFICE_ISOLATION",
                d.office_isolation,
                ("auto", "namespace", "none"),
            ),
            max_sheet_rows=env.integer("TRANSFORMSVC_MAX_SHEET_ROWS", d.max_sheet_rows),
            max_text_bytes=env.integer("TRANSFORMSVC_MAX_TEXT_BYTES", d.max_text_bytes),
            max_image_pixels=env.integer(
                "TRANSFORMSVC_MAX_IMAGE_PIXELS", d.max_image_pixels
            ),
            archive_max_entries=env.integer(
                "TRANSFORMSVC_ARCHIVE_MAX_ENTRIES", d.archive_max_entries
            ),
            archive_max_bytes=env.integer(
                "TRANSFORMSVC_ARCHIVE_MAX_BYTES", d.archive_max_bytes
            ),
            archive_max_entry_bytes=env.integer(
                "TRANSFORMSVC_ARCHIVE_MAX_ENTRY_BYTES", d.archive_max_entry_bytes
            ),
            archive_max_ratio=env.integer(
                "TRANSFORMSVC_ARCHIVE_MAX_RATIO", d.archive_max_ratio
            ),
            container_max_depth=env.integer(
                "TRANSFORMSVC_CONTAINER_MAX_DEPTH", d.container_max_depth
            ),
            mail_max_attachments=env.integer(
                "TRANSFORMSVC_MAIL_MAX_ATTACHMENTS", d.mail_max_attachments
            ),
            ocr=env.choice("TRANSFORMSVC_OCR", d.ocr, ("auto", "always", "never")),
            ocr_languages=tuple(
                part for part in languages.replace(",", "+").split("+") if part
            ),
            ocr_detect_language=env.flag(
                "TRANSFORMSVC_OCR_DETECT_LANGUAGE", d.ocr_detect_language
            ),
            ocr_page_timeout=env.number(
                "TRANSFORMSVC_OCR_PAGE_TIMEOUT", d.ocr_page_timeout
            ),
            ocr_max_pixels=env.integer("TRANSFORMSVC_OCR_MAX_PIXELS", d.ocr_max_pixels),
            ocr_dpi=env.integer("TRANSFORMSVC_OCR_DPI", d.ocr_dpi),
            heartbeat_seconds=env.number(
                "TRANSFORMSVC_HEARTBEAT_SECONDS", d.heartbeat_seconds
            ),
            recovery_grace=env.integer("TRANSFORMSVC_RECOVERY_GRACE", d.recovery_grace),
            redact_reasons=env.pairs("TRANSFORMSVC_REDACT_REASONS", FOIA_EXEMPTIONS),
            search_budget=env.number("TRANSFORMSVC_SEARCH_BUDGET", d.search_budget),
            search_max_results=env.integer(
                "TRANSFORMSVC_SEARCH_MAX_RESULTS", d.search_max_results
            ),
            read_cache_seconds=env.number(
                "TRANSFORMSVC_READ_CACHE_SECONDS", d.read_cache_seconds
            ),
            file_cache_bytes=env.integer(
                "TRANSFORMSVC_FILE_CACHE_BYTES", d.file_cache_bytes
            ),
            webhook_backoff=env.number(
                "TRANSFORMSVC_WEBHOOK_BACKOFF", d.webhook_backoff
            ),
            webhook_backoff_max=env.number(
                "TRANSFORMSVC_WEBHOOK_BACKOFF_MAX", d.webhook_backoff_max
            ),
            webhook_give_up=env.number(
                "TRANSFORMSVC_WEBHOOK_GIVE_UP", d.webhook_give_up
            ),
            webhook_timeout=env.number(
                "TRANSFORMSVC_WEBHOOK_TIMEOUT", d.webhook_timeout
            ),
            webhook_poll=env.number("TRANSFORMSVC_WEBHOOK_POLL", d.webhook_poll),
            webhook_secret=env.text("TRANSFORMSVC_WEBHOOK_SECRET", d.webhook_secret),
            idempotency_ttl=env.integer(
                "TRANSFORMSVC_IDEMPOTENCY_TTL", d.idempotency_ttl
            ),
            metrics_key=env.text("TRANSFORMSVC_METRICS_KEY", d.metrics_key),
            comparison_id_objects=env.flag(
                "TRANSFORMSVC_COMPARISON_ID_OBJECTS", d.comparison_id_objects
            ),
            connectors=env.text("TRANSFORMSVC_CONNECTORS", d.connectors),
            connector_default=env.text(
                "TRANSFORMSVC_CONNECTOR_DEFAULT", d.connector_default
            ).strip(),
        )


def service() -> Service:
    """The service's settings (`settings.SERVICE`)."""
    from django.conf import settings

    return settings.SERVICE
