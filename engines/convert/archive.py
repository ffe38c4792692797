"""ZIP archives as containers: each file entry at the archive's root is a part,
and each folder at its root is a part of its own, a container of what the
folder holds (as the original server shows them: `<id>/1/1` is the first entry
of the first folder); numbered from 1 in the archive's order. Where nesting
would pass the container depth limit, the folder's files become parts of
their own, named by their path in the archive.

Nothing the archive declares is trusted. Entries are inflated as streams
and counted: an entry may inflate to `max(ratio_floor, max_ratio x its
compressed size)` and at most `max_entry_bytes`, all entries together to
`max_total_bytes`; a bomb stops at the first byte over, with what was
written removed. Entries whose data overlap (the "better zip bomb", where
every entry reuses the same compressed kernel) are refused before any
inflation. Encrypted entries are refused: there is no password to ask for.
Entry names are display names only; parts are written as `part-NNNN`.
"""

from __future__ import annotations

import os
import zipfile
from typing import IO

from engines.convert.names import display_name, display_path, part_path
from engines.convert.rendition import Deadline
from engines.convert.types import (
    Container,
    EncryptedDocument,
    LimitExceeded,
    Limits,
    Part,
    UnsupportedDocument,
)

_CHUNK = 1024 * 1024
_MIB = 1024 * 1024


def unpack_zip(path: str, dest_dir: str, limits: Limits, depth: int) -> Container:
    """Write the file entries of the ZIP archive at `path` in `dest_dir`."""
    deadline = Deadline(limits.timeout)
    written: list[str] = []
    try:
        with zipfile.ZipFile(path) as zf:
            entries = _entries(zf, limits)
            _check_overlaps(entries, os.path.getsize(path))
            nest = depth + 1 < limits.max_depth
            parts = _extract(zf, entries, dest_dir, limits, deadline, written, nest)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as exc:
        _remove(written)
        raise UnsupportedDocument(
            "the ZIP archive is damaged (its structure or an entry's checksum is wrong)"
        ) from exc
    except NotImplementedError as exc:
        _remove(written)
        raise UnsupportedDocument(
            "the ZIP archive uses a compression method that is not supported"
        ) from exc
    except Exception:
        _remove(written)
        raise
    return Container(kind="archive", parts=tuple(parts), depth=depth)


def _entries(zf: zipfile.ZipFile, limits: Limits) -> list[zipfile.ZipInfo]:
    entries = [info for info in zf.infolist() if not info.is_dir()]
    if len(entries) > limits.max_entries:
        raise LimitExceeded(
            f"the ZIP archive has {len(entries):,} files; the limit is "
            f"{limits.max_entries:,}"
        )
    for info in entries:
        if info.flag_bits & 0x1:
            raise EncryptedDocument(
                f"the file {display_name(info.filename, 'entry')} in the ZIP archive "
                "is encrypted; upload the archive without a password"
            )
    return entries


def _check_overlaps(entries: list[zipfile.ZipInfo], archive_size: int) -> None:
    """Each entry's data must lie between its local header and the next one:
    overlapping entries are a decompression bomb (or a broken archive)."""
    ordered = sorted(entries, key=lambda info: info.header_offset)
    for info, following in zip(ordered, ordered[1:], strict=False):
        # A 30-byte local header, a name and an extra field, then the data:
        # the data cannot end before this (lengths of the local name and
        # extra field are left out, so a sound archive never trips it).
        end = info.header_offset + 30 + info.compress_size
        if following.header_offset < end:
            raise UnsupportedDocument(
                "the ZIP archive's entries overlap one another; such archives "
                "are decompression bombs and are not opened"
            )
    if ordered and ordered[-1].header_offset > archive_size:
        raise UnsupportedDocument("the ZIP archive is damaged (an entry is missing)")


def _plan(
    entries: list[zipfile.ZipInfo], nest: bool
) -> list[tuple[str, list[tuple[str, zipfile.ZipInfo]]] | zipfile.ZipInfo]:
    """The parts in archive order: a root file, or a folder (its name, and its
    entries with their paths inside it)."""
    plan: list[tuple[str, list[tuple[str, zipfile.ZipInfo]]] | zipfile.ZipInfo] = []
    folders: dict[str, list[tuple[str, zipfile.ZipInfo]]] = {}
    for info in entries:
        path = display_path(info.filename, "")
        folder, _, inside = path.partition("/")
        if not nest or not inside:
            plan.append(info)
            continue
        if folder not in folders:
            folders[folder] = []
            plan.append((folder, folders[folder]))
        folders[folder].append((inside, info))
    return plan


def _extract(
    zf: zipfile.ZipFile,
    entries: list[zipfile.ZipInfo],
    dest_dir: str,
    limits: Limits,
    deadline: Deadline,
    written: list[str],
    nest: bool,
) -> list[Part]:
    parts: list[Part] = []
    total = 0
    for index, item in enumerate(_plan(entries, nest), start=1):
        deadline.check("unpacking the ZIP archive")
        target = part_path(dest_dir, index)
        written.append(target)
        if isinstance(item, zipfile.ZipInfo):
            with open(target, "wb") as out:
                size = _inflate(zf, item, out, limits, limits.max_total_bytes - total)
            total += size
            name = display_path(item.filename, f"entry-{index}")
            parts.append(
                Part(index=index, name=name, path=target, size=size, role="entry")
            )
            continue
        folder, inside = item
        with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as repacked:
            for name, info in inside:
                with repacked.open(name, "w", force_zip64=True) as out:
                    total += _inflate(
                        zf, info, out, limits, limits.max_total_bytes - total
                    )
        parts.append(
            Part(
                index=index,
                name=folder,
                path=target,
                size=os.path.getsize(target),
                role="folder",
                declared_type="application/zip",
            )
        )
    return parts


def _inflate(
    zf: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    out: IO[bytes],
    limits: Limits,
    room: int,
) -> int:
    """Inflate one entry into `out`, counting; raise past a limit."""
    limit = min(
        limits.max_entry_bytes,
        max(limits.ratio_floor, limits.max_ratio * info.compress_size),
    )
    size = 0
    with zf.open(info) as source:
        while chunk := source.read(_CHUNK):
            size += len(chunk)
            if size > limit:
                raise LimitExceeded(
                    f"the file {display_name(info.filename, 'entry')} in the ZIP "
                    f"archive inflates from {info.compress_size:,} bytes to more "
                    f"than {limit // _MIB:,} MiB; decompression bombs are not "
                    "unpacked"
                )
            if size > room:
                raise LimitExceeded(
                    "the files of the ZIP archive inflate to more than "
                    f"{limits.max_total_bytes // _MIB:,} MiB together; the limit "
                    f"is {limits.max_total_bytes // _MIB:,} MiB"
                )
            out.write(chunk)
    return size


def _remove(paths: list[str]) -> None:
    for path in paths:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass
