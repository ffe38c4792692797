"""Outlook messages (.msg, [MS-OXMSG]) made on the spot: a compound file
with the message's properties, its strings as 8-bit text in a legacy code
page (as Outlook writes messages from non-Unicode stores) or as UTF-16."""

from __future__ import annotations

import struct

from tests.convert.cfb import compound_file

PT_LONG, PT_STRING8, PT_UNICODE, PT_BINARY = 0x0003, 0x001E, 0x001F, 0x0102
SUBJECT, BODY, MESSAGE_CLASS = 0x0037, 0x1000, 0x001A
SENDER_NAME, SENDER_EMAIL, DISPLAY_TO = 0x0C1A, 0x0C1F, 0x0E04
HTML = 0x1013
MESSAGE_CODEPAGE, INTERNET_CPID, STORE_SUPPORT_MASK = 0x3FFD, 0x3FDE, 0x340D
_READ_WRITE = 0x6


def outlook_message(
    *,
    subject: str,
    sender: str,
    to: str,
    body: str,
    encoding: str,
    message_codepage: int | None = None,
    internet_codepage: int | None = None,
    html: bytes | None = None,
) -> bytes:
    """A .msg whose strings are `encoding` bytes (string8 properties), with
    the code page properties given (None: left out)."""
    strings = {
        MESSAGE_CLASS: "IPM.Note",
        SUBJECT: subject,
        SENDER_NAME: sender,
        SENDER_EMAIL: sender,
        DISPLAY_TO: to,
        BODY: body,
    }
    streams: dict[str, bytes] = {}
    entries = []
    for prop, value in strings.items():
        data = value.encode(encoding)
        streams[f"__substg1.0_{prop:04X}{PT_STRING8:04X}"] = data
        entries.append(_variable(prop, PT_STRING8, len(data) + 1))
    if html is not None:
        streams[f"__substg1.0_{HTML:04X}{PT_BINARY:04X}"] = html
        entries.append(_variable(HTML, PT_BINARY, len(html)))
    # The store holds no Unicode strings (STORE_UNICODE_OK, 0x40000, unset).
    entries.append(_long(STORE_SUPPORT_MASK, 0x1))
    if message_codepage is not None:
        entries.append(_long(MESSAGE_CODEPAGE, message_codepage))
    if internet_codepage is not None:
        entries.append(_long(INTERNET_CPID, internet_codepage))
    header = b"\0" * 8 + struct.pack("<IIII", 0, 0, 0, 0) + b"\0" * 8
    streams["__properties_version1.0"] = header + b"".join(entries)
    return compound_file(streams)


def _long(prop: int, value: int) -> bytes:
    return struct.pack("<IIiI", (prop << 16) | PT_LONG, _READ_WRITE, value, 0)


def _variable(prop: int, kind: int, size: int) -> bytes:
    return struct.pack("<IIII", (prop << 16) | kind, _READ_WRITE, size, 0)
