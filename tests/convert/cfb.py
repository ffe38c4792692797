"""A small writer of OLE2 compound files ([MS-CFB] version 3), for tests that
need an Outlook message or a legacy Office file made on the spot.

512-byte sectors, streams under 4,096 bytes in the mini stream (64-byte
sectors), one FAT of at most 109 sectors (files up to about 7 MB), siblings
chained through their right pointers (all black: a valid, if unbalanced,
red-black tree, which readers walk without checking).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

SECTOR = 512
MINI = 64
CUTOFF = 4096
FREE, END, FAT_SECTOR = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD
NONE = 0xFFFFFFFF


@dataclass
class _Entry:
    name: str
    kind: int  # 1 storage, 2 stream, 5 root
    data: bytes = b""
    children: dict[str, _Entry] = field(default_factory=dict)
    number: int = 0
    start: int = END
    size: int = 0
    right: int = NONE  # the next sibling in name order


def compound_file(streams: dict[str, bytes]) -> bytes:
    """A compound file holding `streams`, keyed by path ("a/b/stream":
    storages "a" and "a/b" are made as needed)."""
    root = _Entry("Root Entry", 5)
    for path, data in streams.items():
        node = root
        *folders, leaf = path.split("/")
        for folder in folders:
            node = node.children.setdefault(folder, _Entry(folder, 1))
        node.children[leaf] = _Entry(leaf, 2, data)
    entries = _number(root)
    mini = bytearray()
    minifat: list[int] = []
    big: list[_Entry] = []
    for entry in entries:
        if entry.kind != 2:
            continue
        entry.size = len(entry.data)
        if not entry.data:
            entry.start = END
        elif len(entry.data) < CUTOFF:
            first = len(mini) // MINI
            count = -(-len(entry.data) // MINI)
            entry.start = first
            minifat += [first + i + 1 for i in range(count - 1)] + [END]
            mini += entry.data.ljust(count * MINI, b"\0")
        else:
            big.append(entry)
    return _assemble(root, entries, bytes(mini), minifat, big)


def _number(root: _Entry) -> list[_Entry]:
    entries = [root]
    pending = [root]
    while pending:
        node = pending.pop(0)
        children = _ordered(node)
        for child in children:
            child.number = len(entries)
            entries.append(child)
            pending.append(child)
        for left, right in zip(children, children[1:], strict=False):
            left.right = right.number
    return entries


def _ordered(node: _Entry) -> list[_Entry]:
    # [MS-CFB] 2.6.4: shorter names first, then by upper-case code points.
    return sorted(node.children.values(), key=lambda e: (len(e.name), e.name.upper()))


def _sectors(size: int) -> int:
    return -(-size // SECTOR)


def _assemble(
    root: _Entry,
    entries: list[_Entry],
    mini: bytes,
    minifat: list[int],
    big: list[_Entry],
) -> bytes:
    directory_sectors = _sectors(len(entries) * 128)
    minifat_sectors = _sectors(len(minifat) * 4)
    mini_sectors = _sectors(len(mini))
    big_sectors = [_sectors(len(entry.data)) for entry in big]
    others = directory_sectors + minifat_sectors + mini_sectors + sum(big_sectors)
    fat_sectors = 1
    while fat_sectors * 128 < fat_sectors + others:
        fat_sectors += 1
    assert fat_sectors <= 109, "file too large for this writer"
    fat: list[int] = [FAT_SECTOR] * fat_sectors
    body = bytearray()

    def chain(data: bytes) -> int:
        count = _sectors(len(data))
        first = len(fat)
        fat.extend(first + i + 1 for i in range(count - 1))
        fat.append(END)
        body.extend(data.ljust(count * SECTOR, b"\0"))
        return first

    directory_start = len(fat)
    fat.extend(directory_start + i + 1 for i in range(directory_sectors - 1))
    fat.append(END)
    directory_at = len(body)
    body.extend(b"\0" * directory_sectors * SECTOR)
    minifat_start = (
        chain(b"".join(struct.pack("<I", n) for n in minifat)) if minifat else END
    )
    root.start = chain(mini) if mini else END
    root.size = len(mini)
    for entry in big:
        entry.start = chain(entry.data)
    directory = b"".join(_directory_entry(entry) for entry in entries)
    body[directory_at : directory_at + len(directory)] = directory
    fat += [FREE] * (fat_sectors * 128 - len(fat))
    header = _header(fat_sectors, directory_start, minifat_start, minifat_sectors)
    fat_bytes = b"".join(struct.pack("<I", n) for n in fat)
    return header + fat_bytes + bytes(body)


def _directory_entry(entry: _Entry) -> bytes:
    name = entry.name.encode("utf-16-le") + b"\0\0"
    assert len(name) <= 64, entry.name
    children = _ordered(entry)
    child = children[0].number if children else NONE
    return (
        name.ljust(64, b"\0")
        + struct.pack("<HBB", len(name), entry.kind, 1)
        + struct.pack("<III", NONE, entry.right, child)
        + b"\0" * 16
        + b"\0" * 4
        + b"\0" * 16
        + struct.pack("<IQ", entry.start if entry.kind != 1 else 0, entry.size)
    )


def _header(
    fat_sectors: int, directory_start: int, minifat_start: int, minifat_sectors: int
) -> bytes:
    difat = list(range(fat_sectors)) + [FREE] * (109 - fat_sectors)
    return (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + b"\0" * 16
        + struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6)
        + b"\0" * 6
        + struct.pack("<II", 0, fat_sectors)
        + struct.pack("<II", directory_start, 0)
        + struct.pack("<I", CUTOFF)
        + struct.pack("<II", minifat_start, minifat_sectors)
        + struct.pack("<II", END, 0)
        + b"".join(struct.pack("<I", n) for n in difat)
    )
