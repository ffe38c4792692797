"""One LibreOffice instance of the pool: its directory, its processes, its end.

The process tree, when the machine allows namespaces (Linux, root or
unprivileged user namespaces):

    unshare --net --pid --fork --kill-child   (our child)
      python3 server.py                        (PID 1 of the new namespaces)
        soffice.bin                            (the office itself)

`--net`: the namespace has a loopback interface that is down and nothing
else, so LibreOffice cannot reach any address, not even this machine's own
services (an SSRF from a document's linked image or external data fails at
once). The instance then cannot be reached over TCP from outside either,
which is why it listens on Unix sockets only (the XML-RPC socket of the
server and the UNO pipe of soffice.bin): Unix sockets belong to the file
system, which is shared. `--pid`: when the server dies, the kernel kills
everything left in the namespace, and reaps it; nothing is orphaned to the
host's init. Without namespaces, the same tree runs without the first line,
protected by the hardened profile alone.

Everything an instance writes lives under its directory: profile, sockets,
LibreOffice's temporary files (TMPDIR), the server's log.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
import weakref
import xmlrpc.client

from engines.convert.office import procs
from engines.convert.office.client import server_proxy
from engines.convert.office.fonts import fontconfig_file
from engines.convert.office.profile import (
    DEAD_PROXY_HOST,
    DEAD_PROXY_PORT,
    write_profile,
)
from engines.errors import OfficeUnavailable

logger = logging.getLogger(__name__)

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.py")
NAMESPACE_FLAGS = ("--net", "--pid", "--fork", "--kill-child")
_DEAD_PROXY = f"http://{DEAD_PROXY_HOST}:{DEAD_PROXY_PORT}"


def namespace_prefix() -> list[str] | None:
    """The `unshare` command line that isolates an instance, or None when
    this machine does not allow it (no unshare, no namespaces, no rights)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    prefix = [unshare, *NAMESPACE_FLAGS]
    if os.geteuid() != 0:
        prefix.insert(1, "--map-root-user")  # an unprivileged user namespace
    try:
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return prefix if probe.returncode == 0 else None


def unoserver_lib(root: str) -> str:
    """A directory holding only the `unoserver` package of this environment,
    for the server's sys.path (the system Python must not see the rest of the
    venv)."""
    spec = importlib.util.find_spec("unoserver")
    if spec is None or not spec.submodule_search_locations:
        raise OfficeUnavailable("the unoserver package is not installed")
    lib = os.path.join(root, "lib")
    os.makedirs(lib, exist_ok=True)
    link = os.path.join(lib, "unoserver")
    if not os.path.islink(link):
        os.symlink(list(spec.submodule_search_locations)[0], link)
    return lib


_LIVE: weakref.WeakSet[Instance] = weakref.WeakSet()


def _close_lifelines_in_child() -> None:
    # A forked child must not keep our instances' lifelines open: they would
    # outlive this process's death, and the instances with them.
    for instance in list(_LIVE):
        if instance._lifeline is not None:
            try:
                os.close(instance._lifeline)
            except OSError:
                pass
            instance._lifeline = None
            instance._process = None  # not the child's to stop


os.register_at_fork(after_in_child=_close_lifelines_in_child)


class Instance:
    """A LibreOffice process tree serving conversions one at a time.

    Thread-safety: one thread converts with it at a time (the pool's
    queue); the pool's watchdog may `kill` it at any time.
    """

    def __init__(
        self,
        number: int,
        root: str,
        *,
        python: str,
        soffice: str,
        lib: str,
        prefix: list[str] | None,
        max_output_bytes: int,
    ) -> None:
        self.number = number
        self.dir = os.path.join(root, f"instance-{number}")
        self.profile = os.path.join(self.dir, "profile")
        self.socket = os.path.join(self.dir, "rpc.sock")
        self.tmp = os.path.join(self.dir, "tmp")
        self.log = os.path.join(self.dir, "server.log")
        self._python, self._soffice, self._lib = python, soffice, lib
        self._prefix = prefix
        self._max_output = max_output_bytes
        self._process: subprocess.Popen[bytes] | None = None
        self._lifeline: int | None = None
        self._pipe = ""
        self._pipes: list[str] = []
        self._lock = threading.Lock()
        self.conversions = 0  # since the last start
        self.starts = 0
        self.kill_reason: str | None = None  # set by the watchdog
        self.deadline: float | None = None  # set while converting
        os.makedirs(self.dir, mode=0o700, exist_ok=True)
        _LIVE.add(self)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    def running(self) -> bool:
        process = self._process
        return process is not None and process.poll() is None

    def start(self, timeout: float) -> None:
        """Start the tree and wait until the server answers (at most
        `timeout` s); raise `OfficeUnavailable` when it does not."""
        self.stop()
        write_profile(self.profile)
        shutil.rmtree(self.tmp, ignore_errors=True)
        os.makedirs(self.tmp, mode=0o700)
        self._pipe = f"transformsvc-{uuid.uuid4().hex}"
        read_end, write_end = os.pipe()
        command = [*(self._prefix or []), self._python, SERVER]
        command += ["--socket", self.socket, "--profile", self.profile]
        command += ["--pipe", self._pipe, "--lib", self._lib]
        command += ["--soffice", self._soffice, "--lifeline", str(read_end)]
        command += ["--fsize", str(self._max_output)]
        with open(self.log, "ab") as log:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env=self._environment(),
                pass_fds=(read_end,),
                start_new_session=True,  # signals to the worker do not reach it
            )
        os.close(read_end)
        self._lifeline = write_end
        self.conversions, self.kill_reason, self.deadline = 0, None, None
        self.starts += 1
        self._wait_ready(timeout)

    def _environment(self) -> dict[str, str]:
        return office_environment(self.dir, self.tmp)

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        proxy = server_proxy(self.socket, timeout=5.0)
        while True:
            if not self.running():
                self.stop()
                raise OfficeUnavailable(
                    f"LibreOffice did not start ({self._last_log_line()})"
                )
            try:
                if proxy.ping() == "ok":
                    self._pipes = self._office_pipes()
                    return
            except (OSError, xmlrpc.client.Error):
                pass  # not listening yet
            if time.monotonic() > deadline:
                self.stop()
                raise OfficeUnavailable(
                    f"LibreOffice did not start within {timeout:g} s"
                )
            time.sleep(0.05)

    def _office_pipes(self) -> list[str]:
        """LibreOffice's pipe sockets in /tmp (its UNO pipe, its
        single-instance pipe), to remove once it is stopped."""
        pid = self.pid
        office = procs.find_descendant(pid, "soffice.bin") if pid else None
        if office is None:
            return []
        return [p for p in procs.unix_socket_paths(office) if "/OSL_PIPE_" in p]

    def _last_log_line(self) -> str:
        try:
            with open(self.log, "rb") as fh:
                fh.seek(max(0, os.path.getsize(self.log) - 2000))
                lines = fh.read().decode(errors="replace").strip().splitlines()
        except OSError:
            return "no log"
        return lines[-1][:200] if lines else "no log"

    def rss(self) -> int:
        """Resident bytes of the whole tree (0 when it is not running)."""
        pid = self.pid
        return procs.tree_rss(pid) if pid and self.running() else 0

    def kill(self, reason: str) -> None:
        """Kill the tree now (any thread); the converting thread then sees
        its call fail and reads `kill_reason`."""
        self.kill_reason = reason
        pid = self.pid
        if pid is not None and self.running():
            procs.kill_tree(pid)

    def stop(self) -> None:
        """Kill and reap the tree, remove its sockets and temporary files."""
        with self._lock:
            process, self._process = self._process, None
            if process is not None:
                if process.poll() is None:
                    procs.kill_tree(process.pid)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    logger.error("office instance %s did not exit", self.number)
            if self._lifeline is not None:
                os.close(self._lifeline)
                self._lifeline = None
            for path in [self.socket, *self._pipes]:
                try:
                    os.remove(path)
                except (FileNotFoundError, IsADirectoryError):
                    pass
            self._pipes = []
            shutil.rmtree(self.tmp, ignore_errors=True)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def office_environment(home: str, tmp: str) -> dict[str, str]:
    """The environment LibreOffice runs with: its own HOME and TMPDIR (so
    its files go where the pool cleans up), headless, its own fontconfig
    file (metric-compatible stand-ins, `fonts.py`), nothing inherited."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "TMPDIR": tmp,
        "LANG": "C.UTF-8",
        "SAL_USE_VCLPLUGIN": "svp",
        "FONTCONFIG_FILE": fontconfig_file(home),
    }
    # Should a fetch slip through the profile, libcurl's own proxy variables
    # point it at nowhere too.
    for name in ("http_proxy", "https_proxy", "ftp_proxy", "all_proxy"):
        env[name] = env[name.upper()] = _DEAD_PROXY
    return env


def default_soffice() -> str:
    """soffice.bin of the installed LibreOffice (the program itself, not the
    wrapper script, so that the tree is one process shorter)."""
    for candidate in (
        "/usr/lib/libreoffice/program/soffice.bin",
        "/opt/libreoffice/program/soffice.bin",
    ):
        if os.path.exists(candidate):
            return candidate
    found = shutil.which("soffice")
    if found:
        program = os.path.join(os.path.dirname(os.path.realpath(found)), "soffice.bin")
        if os.path.exists(program):
            return program
    raise OfficeUnavailable("LibreOffice is not installed (no soffice.bin found)")


def default_python() -> str:
    """The Python that has LibreOffice's `uno` module (Debian's python3-uno
    belongs to the system Python)."""
    for candidate in ("/usr/bin/python3", sys.executable):
        if os.path.exists(candidate):
            return candidate
    raise OfficeUnavailable("no Python with LibreOffice's uno module was found")


def isolation_prefix(mode: str) -> list[str] | None:
    """The command prefix that runs an instance without network for isolation
    `mode` (auto, namespace or none); None to run it with the hardened profile
    only. Raises OfficeUnavailable when `namespace` is required but not allowed."""
    if mode == "none":
        return None
    prefix = namespace_prefix()
    if prefix is None and mode == "namespace":
        raise OfficeUnavailable(
            "LibreOffice must run without network, but this machine does not "
            "allow network namespaces (unshare)"
        )
    if prefix is None:
        logger.warning(
            "office pool: network namespaces are not available; instances run "
            "with the hardened profile only"
        )
    return prefix
