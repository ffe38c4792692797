"""How a pool runs, and what it reports (frozen dataclasses)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class PoolSettings:
    """How a pool runs; each is a setting of the service.

    `isolation`: "auto" (a network and PID namespace when the machine allows
    it), "namespace" (required: fail to start without), "none".
    """

    size: int = 1
    timeout: float = 120.0  # default time limit of a conversion, seconds
    max_rss_mb: int = 1024  # resident memory of one instance's process tree
    recycle_after: int = 200  # conversions before an instance is restarted
    start_timeout: float = 60.0
    max_output_mb: int = 1024  # largest file LibreOffice may write
    isolation: str = "auto"
    workdir: str | None = None  # default: a private temporary directory
    python: str | None = None  # default: /usr/bin/python3 (has `uno`)
    soffice: str | None = None  # default: LibreOffice's soffice.bin
    watch_interval: float = 0.1


class PoolObserver(Protocol):
    """What a pool tells its owner (metrics); calls must be cheap and never raise."""

    def instances(self, count: int) -> None: ...

    def restarted(self, reason: str) -> None: ...  # crash, timeout, memory, recycle

    def timed_out(self) -> None: ...


class _Unobserved:
    def instances(self, count: int) -> None:
        pass

    def restarted(self, reason: str) -> None:
        pass

    def timed_out(self) -> None:
        pass


UNOBSERVED: PoolObserver = _Unobserved()


@dataclass(frozen=True, slots=True)
class InstanceStats:
    number: int
    pid: int | None
    rss: int  # bytes
    conversions: int  # since its last start
    starts: int


@dataclass(frozen=True, slots=True)
class PoolStats:
    instances: tuple[InstanceStats, ...]
    conversions: int
    kills: int
    isolated: bool

    @property
    def rss(self) -> int:
        return sum(instance.rss for instance in self.instances)
