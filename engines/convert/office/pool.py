"""A pool of warm LibreOffice instances, owned by one worker process.

A cold `soffice --convert-to pdf` pays LibreOffice's start (about a second)
on every document; a warm instance only loads, lays out and exports. The
pool keeps `size` instances running, hands each conversion to a free one,
and supervises them from a watchdog thread:

- a conversion that runs past its time limit has its instance killed (the
  whole process tree, by `procs.kill_tree`) and gets `ConversionTimeout`;
- an instance whose tree's resident memory passes `max_rss_mb` is killed
  the same way (the conversion gets `LimitExceeded`);
- an instance that crashes fails its conversion with `ConversionFailed`;
- an instance is restarted after `recycle_after` conversions, or when a
  conversion left it holding more than 3/4 of `max_rss_mb`, before it
  serves again (LibreOffice's memory grows over documents).

Killed, crashed and recycled instances are replaced in the background; the
next conversion waits for a free instance. The pool is thread-safe.

Lifetime: create it in the process that converts (after any fork: a pool
does not survive one), `start()` it to pay the start-up before the first
document, `close()` it when the process ends. If the process dies without
closing it, each instance notices (its lifeline pipe reaches EOF) and
exits; nothing is left running.
"""

from __future__ import annotations

import logging
import os
import queue
import shutil
import threading
import time
import xmlrpc.client
from collections.abc import Iterator
from contextlib import contextmanager

from engines.convert.office.client import FAULT_LOAD, server_proxy
from engines.convert.office.instance import (
    Instance,
    default_python,
    default_soffice,
    isolation_prefix,
    office_environment,
    unoserver_lib,
)
from engines.convert.office.oneshot import convert_once
from engines.convert.office.settings import (
    MIB,
    UNOBSERVED,
    InstanceStats,
    PoolObserver,
    PoolSettings,
    PoolStats,
)
from engines.convert.office.workdirs import new_workdir, remove_abandoned
from engines.convert.types import LimitExceeded
from engines.errors import ConversionFailed, ConversionTimeout, OfficeUnavailable

logger = logging.getLogger(__name__)


class OfficePool:
    """`size` warm LibreOffice instances; `convert(src, dest)` renders an
    Office file as PDF with one of them."""

    def __init__(
        self, settings: PoolSettings | None = None, observer: PoolObserver = UNOBSERVED
    ) -> None:
        self.settings = settings or PoolSettings()
        self._observer = observer
        if self.settings.size < 1:
            raise ValueError("a pool needs at least one instance")
        if self.settings.workdir is None:
            remove_abandoned()  # of workers killed before they could clean up
        self._root = self.settings.workdir or new_workdir()
        os.makedirs(self._root, mode=0o700, exist_ok=True)
        self._owns_root = self.settings.workdir is None
        self._prefix = isolation_prefix(self.settings.isolation)
        lib = unoserver_lib(self._root)
        python = self.settings.python or default_python()
        soffice = self._soffice = self.settings.soffice or default_soffice()
        self._instances = [
            Instance(
                number,
                self._root,
                python=python,
                soffice=soffice,
                lib=lib,
                prefix=self._prefix,
                max_output_bytes=self.settings.max_output_mb * MIB,
            )
            for number in range(1, self.settings.size + 1)
        ]
        self._idle: queue.Queue[Instance] = queue.Queue()
        for instance in self._instances:
            self._idle.put(instance)
        self._busy: set[Instance] = set()
        # Profiles of one-shot conversions, one per concurrent use.
        self._oneshots: queue.Queue[str] = queue.Queue()
        for number in range(1, self.settings.size + 1):
            self._oneshots.put(os.path.join(self._root, f"oneshot-{number}"))
        self._replacing: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._conversions = self._kills = 0
        self._watchdog = threading.Thread(
            target=self._watch, name="office-pool-watchdog", daemon=True
        )
        self._watchdog.start()

    @property
    def isolated(self) -> bool:
        """True when instances run without network (in their namespaces)."""
        return self._prefix is not None

    def start(self) -> None:
        """Start every instance now (in parallel), rather than at first use."""
        errors: list[Exception] = []

        def start_one(instance: Instance) -> None:
            try:
                if not instance.running():
                    instance.start(self.settings.start_timeout)
            except Exception as exc:
                errors.append(exc)

        threads = [
            threading.Thread(target=start_one, args=(instance,))
            for instance in self._instances
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self._observer.instances(sum(i.running() for i in self._instances))
        if errors:
            raise errors[0]

    def convert(
        self,
        src: str,
        dest: str,
        *,
        timeout: float | None = None,
        import_options: str = "",
    ) -> None:
        """Render the Office file at `src` as a PDF at `dest` (absolute paths
        both, readable and writable by this user).

        The file's extension tells LibreOffice its format. `import_options`
        are the import filter's options (a CSV's separator and charset).
        `timeout` (default `settings.timeout`) bounds the conversion itself,
        not the wait for a free instance. Raises `ConversionTimeout`,
        `LimitExceeded` (memory), `ConversionFailed` (LibreOffice could not
        open or convert the document, or crashed), `OfficeUnavailable`.
        """
        limit = self.settings.timeout if timeout is None else timeout
        with self._instance() as instance:
            self._convert_with(instance, src, dest, limit, import_options)

    def convert_once(
        self, src: str, dest: str, *, timeout: float | None = None
    ) -> None:
        """Convert with a fresh soffice process instead of a warm instance
        (see oneshot.py: for documents a warm instance cannot load). Same
        errors as `convert`; at most `size` run at once."""
        limit = self.settings.timeout if timeout is None else timeout
        profile = self._oneshots.get()
        try:
            if self._closed.is_set():
                raise OfficeUnavailable("the office pool is closed")
            tmp = os.path.join(profile, "tmp")
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp, mode=0o700)
            convert_once(
                src,
                dest,
                profile=profile,
                prefix=self._prefix,
                soffice=self._soffice,
                environment=office_environment(profile, tmp),
                timeout=limit,
            )
        finally:
            self._oneshots.put(profile)

    @contextmanager
    def _instance(self) -> Iterator[Instance]:
        instance = self._acquire()
        healthy = False
        try:
            if not instance.running():
                instance.start(self.settings.start_timeout)
            yield instance
            healthy = instance.running() and instance.kill_reason is None
        finally:
            with self._lock:
                self._busy.discard(instance)
            self._release(instance, healthy)

    def _acquire(self) -> Instance:
        while True:
            if self._closed.is_set():
                raise OfficeUnavailable("the office pool is closed")
            try:
                instance = self._idle.get(timeout=0.5)
            except queue.Empty:
                continue
            if self._closed.is_set():
                self._idle.put(instance)
                raise OfficeUnavailable("the office pool is closed")
            return instance

    def _convert_with(
        self, instance: Instance, src: str, dest: str, limit: float, options: str
    ) -> None:
        proxy = server_proxy(instance.socket, timeout=limit + 10)
        instance.deadline = time.monotonic() + limit
        with self._lock:
            self._busy.add(instance)
        try:
            proxy.convert(src, dest, options)
        except xmlrpc.client.Fault as fault:
            if fault.faultCode != FAULT_LOAD and self._died(instance):
                # soffice died under the call: the bridge's error is a symptom.
                raise ConversionFailed(
                    "LibreOffice crashed while converting the document"
                ) from None
            if fault.faultCode == FAULT_LOAD:
                raise ConversionFailed(
                    "LibreOffice could not open the document: it is damaged, "
                    "protected, or in a format it does not read"
                ) from None
            raise ConversionFailed(
                f"LibreOffice failed to convert the document ({fault.faultString})"
            ) from None
        except (OSError, xmlrpc.client.ProtocolError, EOFError) as exc:
            raise self._failure(instance, limit, exc) from exc
        finally:
            instance.deadline = None
            with self._lock:
                self._conversions += 1
        instance.conversions += 1

    @staticmethod
    def _died(instance: Instance) -> bool:
        """True when the instance exits within a moment (its server exits as
        soon as soffice.bin does)."""
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            if not instance.running():
                return True
            time.sleep(0.05)
        return False

    def _failure(
        self, instance: Instance, limit: float, error: BaseException
    ) -> Exception:
        """The error for a call that failed because its instance went away."""
        reason = instance.kill_reason
        if reason is None and isinstance(error, TimeoutError):
            reason = "timeout"  # the watchdog should have been first
        instance.kill(reason or "crash")  # a half-dead tree is no use either
        if reason == "timeout":
            return ConversionTimeout(
                f"the conversion took longer than its time limit of {limit:g} s "
                "and was stopped"
            )
        if reason == "memory":
            return LimitExceeded(
                "the conversion needed more memory than the limit of "
                f"{self.settings.max_rss_mb} MB and was stopped"
            )
        return ConversionFailed("LibreOffice crashed while converting the document")

    def _release(self, instance: Instance, healthy: bool) -> None:
        if self._closed.is_set():
            instance.stop()
            self._idle.put(instance)
            return
        recycle = instance.conversions >= self.settings.recycle_after or (
            instance.rss() > self.settings.max_rss_mb * MIB * 3 // 4
        )
        if healthy and not recycle:
            self._idle.put(instance)
            return
        self._observer.restarted(
            "recycle" if healthy else (instance.kill_reason or "crash")
        )
        # Replaced in the background: the caller has its answer already.
        thread = threading.Thread(
            target=self._replace, args=(instance,), name="office-pool-replace"
        )
        with self._lock:
            self._replacing = [t for t in self._replacing if t.is_alive()] + [thread]
        thread.start()

    def _replace(self, instance: Instance) -> None:
        try:
            try:
                instance.start(self.settings.start_timeout)
            except OfficeUnavailable:
                if self._closed.is_set():
                    raise
                # Seen once under heavy load: a start that ended at once,
                # silently. A second try costs a second, not a conversion.
                instance.start(self.settings.start_timeout)
        except Exception:
            if not self._closed.is_set():
                logger.exception(
                    "office pool: instance %s did not restart", instance.number
                )
        finally:
            if self._closed.is_set():
                instance.stop()  # close() may have run while it started
            self._idle.put(instance)  # a dead one is started again when taken

    def _watch(self) -> None:
        """Kill busy instances past their deadline or their memory limit."""
        limit = self.settings.max_rss_mb * MIB
        while not self._closed.wait(self.settings.watch_interval):
            with self._lock:
                busy = list(self._busy)
            for instance in busy:
                deadline = instance.deadline
                if deadline is None or instance.kill_reason is not None:
                    continue
                if time.monotonic() > deadline:
                    self._kill(instance, "timeout")
                elif instance.rss() > limit:
                    self._kill(instance, "memory")

    def _kill(self, instance: Instance, reason: str) -> None:
        logger.warning("office pool: killing instance %s (%s)", instance.number, reason)
        with self._lock:
            self._kills += 1
        if reason == "timeout":
            self._observer.timed_out()
        instance.kill(reason)

    def stats(self) -> PoolStats:
        return PoolStats(
            instances=tuple(
                InstanceStats(
                    number=instance.number,
                    pid=instance.pid,
                    rss=instance.rss(),
                    conversions=instance.conversions,
                    starts=instance.starts,
                )
                for instance in self._instances
            ),
            conversions=self._conversions,
            kills=self._kills,
            isolated=self.isolated,
        )

    def info(self) -> dict[str, object]:
        """LibreOffice's version and the security settings as a running
        instance reads them (starts one if needed)."""
        with self._instance() as instance:
            answer = server_proxy(instance.socket, timeout=30).info()
        return dict(answer) if isinstance(answer, dict) else {}

    def close(self) -> None:
        """Stop every instance (busy ones too) and remove the pool's files."""
        if self._closed.is_set():
            return
        self._closed.set()
        self._watchdog.join(timeout=5)
        # Killing first also ends the starts of instances being replaced.
        for instance in self._instances:
            instance.kill("closed")
        with self._lock:
            replacing = list(self._replacing)
        for thread in replacing:
            thread.join(timeout=self.settings.start_timeout + 10)
        for instance in self._instances:
            instance.remove()
        self._observer.instances(0)
        if self._owns_root:
            shutil.rmtree(self._root, ignore_errors=True)

    def __enter__(self) -> OfficePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
