"""ZIP archives become their file entries, numbered from 1, within limits."""

from __future__ import annotations

import io
import os
import struct
import zipfile
from pathlib import Path

import pytest

from engines.convert import (
    Container,
    EncryptedDocument,
    Family,
    LimitExceeded,
    Limits,
    detect,
    unpack,
)
from engines.errors import UnsupportedDocument


def make_zip(
    path: Path, entries: dict[str, bytes], *, method: int = zipfile.ZIP_DEFLATED
) -> Path:
    with zipfile.ZipFile(path, "w", compression=method) as zf:
        for name, data in entries.items():
            if name.endswith("/"):
                zf.mkdir(name.rstrip("/"))
            else:
                zf.writestr(name, data)
    return path


def open_zip(
    path: Path, tmp_path: Path, limits: Limits | None = None, depth: int = 0
) -> Container:
    out = tmp_path / f"parts-{depth}"
    out.mkdir(exist_ok=True)
    detected = detect(str(path))
    assert detected.family is Family.ARCHIVE
    return unpack(str(path), detected, str(out), limits or Limits(), depth=depth)


def test_entries_are_numbered_from_one_and_directories_take_no_number(
    tmp_path: Path,
) -> None:
    path = make_zip(
        tmp_path / "a.zip",
        {
            "docs/": b"",
            "docs/one.txt": b"first",
            "two.pdf": b"%PDF-",
            "docs/sub/three.csv": b"a,b",
        },
    )

    container = open_zip(path, tmp_path)

    # The folder is one part, a ZIP of what it holds, numbered where it first
    # appears; the root's files are parts of their own.
    assert [(p.index, p.name, p.role) for p in container.parts] == [
        (1, "docs", "folder"),
        (2, "two.pdf", "entry"),
    ]
    with zipfile.ZipFile(container.parts[0].path) as folder:
        assert folder.namelist() == ["one.txt", "sub/three.csv"]
        assert folder.read("one.txt") == b"first"
    assert Path(container.parts[1].path).read_bytes() == b"%PDF-"


def test_folders_stay_flat_where_nesting_would_pass_the_depth_limit(
    tmp_path: Path,
) -> None:
    path = make_zip(tmp_path / "a.zip", {"docs/one.txt": b"first", "two.pdf": b"x"})
    limits = Limits()
    container = open_zip(path, tmp_path, depth=limits.max_depth - 1)
    assert [(p.name, p.role) for p in container.parts] == [
        ("docs/one.txt", "entry"),
        ("two.pdf", "entry"),
    ]


def test_entry_names_keep_their_folders_but_never_become_paths(tmp_path: Path) -> None:
    path = make_zip(
        tmp_path / "evil.zip",
        {
            "../../etc/passwd": b"x",
            "/abs/path.txt": b"y",
            "C:\\win\\evil.exe": b"z",
            "\u202eexe.pdf": b"w",
        },
    )

    container = open_zip(path, tmp_path)

    # Folders become parts named as people know them, never climbing out of
    # the archive; the files on disk are numbered, whatever the names say.
    assert [p.name for p in container.parts] == ["etc", "abs", "C_", "exe.pdf"]
    assert sorted(os.listdir(tmp_path / "parts-0")) == [
        "part-0001",
        "part-0002",
        "part-0003",
        "part-0004",
    ]


def test_a_nested_archive_is_unpacked_by_the_caller_one_level_deeper(
    tmp_path: Path,
) -> None:
    inner = make_zip(tmp_path / "inner.zip", {"deep.txt": b"deep"})
    outer = make_zip(tmp_path / "outer.zip", {"inner.zip": inner.read_bytes()})

    first = open_zip(outer, tmp_path)
    second = open_zip(Path(first.parts[0].path), tmp_path, depth=first.depth + 1)

    assert (second.depth, second.parts[0].name) == (1, "deep.txt")
    with pytest.raises(LimitExceeded, match="nested more than 3 levels"):
        open_zip(Path(first.parts[0].path), tmp_path, depth=4)


def test_a_zip_bomb_is_stopped_and_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("zeros.bin", "w") as entry:
            for _ in range(64):
                entry.write(bytes(1024 * 1024))
    assert path.stat().st_size < 200_000

    with pytest.raises(
        LimitExceeded, match=r"zeros.bin in the ZIP archive inflates from [\d,]+ bytes"
    ):
        open_zip(path, tmp_path, Limits(ratio_floor=4 * 1024 * 1024))

    assert os.listdir(tmp_path / "parts-0") == []


def test_the_entries_together_are_capped(tmp_path: Path) -> None:
    path = make_zip(
        tmp_path / "sum.zip", {f"f{n}.bin": os.urandom(300_000) for n in range(10)}
    )

    with pytest.raises(LimitExceeded, match="inflate to more than 2 MiB together"):
        open_zip(path, tmp_path, Limits(max_total_bytes=2 * 1024 * 1024))


def test_too_many_entries_are_refused(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "many.zip", {f"f{n}.txt": b"x" for n in range(50)})

    with pytest.raises(LimitExceeded, match="50 files; the limit is 20"):
        open_zip(path, tmp_path, Limits(max_entries=20))


def test_an_encrypted_entry_is_refused(tmp_path: Path) -> None:
    path = make_zip(
        tmp_path / "enc.zip", {"secret.txt": b"hidden"}, method=zipfile.ZIP_STORED
    )
    data = bytearray(path.read_bytes())
    # Set bit 0 (encrypted) of the flags in the local and the central header.
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.index(signature) + offset
        data[at] |= 0x01
    path.write_bytes(bytes(data))

    with pytest.raises(
        EncryptedDocument, match="secret.txt in the ZIP archive is encrypted"
    ):
        open_zip(path, tmp_path)


def overlapping_zip(path: Path, copies: int) -> Path:
    """A "better zip bomb": `copies` central directory entries that all point
    at the same compressed data."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("kernel.bin", bytes(10 * 1024 * 1024))
    raw = buffer.getvalue()
    central_at = raw.index(b"PK\x01\x02")
    end_at = raw.index(b"PK\x05\x06")
    record = raw[central_at:end_at]
    records = b""
    for n in range(copies):
        name = f"copy{n:03d}.bin".encode()
        fixed = bytearray(record[:46])
        struct.pack_into("<H", fixed, 28, len(name))
        records += bytes(fixed) + name + record[46 + 10 :]
    end = bytearray(raw[end_at:])
    struct.pack_into("<HHII", end, 8, copies, copies, len(records), central_at)
    path.write_bytes(raw[:central_at] + records + bytes(end))
    return path


def test_overlapping_entries_are_refused_before_inflating(tmp_path: Path) -> None:
    path = overlapping_zip(tmp_path / "overlap.zip", 50)

    with pytest.raises(UnsupportedDocument, match="entries overlap"):
        open_zip(path, tmp_path)


def test_an_entry_larger_than_it_declares_is_refused(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "liar.zip", {"data.txt": b"A" * 100_000})
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = data.index(signature) + offset
        struct.pack_into("<I", data, at, 10)  # claims 10 bytes
    path.write_bytes(bytes(data))

    with pytest.raises(UnsupportedDocument, match="damaged"):
        open_zip(path, tmp_path)
