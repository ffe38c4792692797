"""Process trees read from /proc: their members, their memory, their end.

An instance is a small tree (unshare -> our server -> soffice.bin). Its
memory is the resident set of the whole tree; it is stopped by killing the
tree leaves first, so every process is reaped by its own parent (the one
that waits for it) and nothing is left to the host's init, which in a
container may not reap at all.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterable

_PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses.
    fields = data[data.rfind(b")") + 2 :].split()
    return fields[0].decode(), int(fields[1])


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        found = _stat(int(entry))
        if found is not None:
            children.setdefault(found[1], []).append(int(entry))
    return children


def descendants(root: int) -> list[int]:
    """Pids below `root`, parents before their children."""
    children = _children_map()
    found: list[int] = []
    queue = list(children.get(root, []))
    while queue:
        pid = queue.pop(0)
        found.append(pid)
        queue.extend(children.get(pid, []))
    return found


def tree_rss(root: int) -> int:
    """Resident bytes of `root` and all its descendants."""
    return sum(_rss(pid) for pid in [root, *descendants(root)])


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    found = _stat(pid)
    return found is not None and found[0] != "Z"


def kill_tree(root: int, *, grace: float = 2.0) -> None:
    """SIGKILL the descendants of `root` (deepest first), give their parents
    `grace` seconds to reap them and `root` to exit on its own (our server
    exits when soffice dies; unshare when its child does), then SIGKILL
    `root`. The caller reaps `root`, its own child."""
    below = descendants(root)
    _kill(reversed(below))
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(_stat(pid) for pid in below):
        time.sleep(0.02)
    _kill([root])


def _kill(pids: Iterable[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def unix_socket_paths(pid: int) -> list[str]:
    """Paths of the Unix sockets that process `pid` has open (read from its
    fds and its network namespace's socket table), e.g. LibreOffice's pipes
    in /tmp, which a killed soffice.bin leaves behind."""
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
        with open(f"/proc/{pid}/net/unix") as fh:
            rows = fh.read().splitlines()[1:]
    except OSError:
        return []
    paths = []
    for row in rows:
        fields = row.split(None, 7)
        if len(fields) == 8 and fields[6] in inodes and fields[7].startswith("/"):
            paths.append(fields[7])
    return paths


def find_descendant(root: int, program: str) -> int | None:
    """The first process below `root` whose executable's name is `program`."""
    for pid in descendants(root):
        try:
            if os.path.basename(os.readlink(f"/proc/{pid}/exe")) == program:
                return pid
        except OSError:
            continue
    return None
