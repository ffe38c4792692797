"""Images of the output keep their pixels, not their metadata.

A JPEG carries application segments (EXIF, XMP, Photoshop data, ICC
profiles) and comments that readers show and may name anything; a PDF reader
needs none of them but the JFIF and Adobe segments (colour transform).
"""

from __future__ import annotations

from pikepdf import Array, Dictionary, Name, Stream

_KEPT = frozenset((0xE0, 0xEE))  # APP0 (JFIF), APP14 (Adobe)


def strip_jpeg_metadata(stream: Stream) -> None:
    """Drop a DCT-encoded image's metadata segments, in place."""
    filters = stream.get(Name.Filter)
    names = [str(f) for f in filters] if isinstance(filters, Array) else [str(filters)]
    if names != ["/DCTDecode"]:
        return
    data = stream.read_raw_bytes()
    stripped = without_metadata(data)
    if stripped != data:
        parms = stream.get(Name.DecodeParms)
        kept = parms if isinstance(parms, Dictionary) else None
        stream.write(stripped, filter=Name.DCTDecode, decode_parms=kept)


def without_metadata(data: bytes) -> bytes:
    """The JPEG `data` without application segments other than JFIF and
    Adobe, and without comments; unchanged when it cannot be parsed."""
    if data[:2] != b"\xff\xd8":
        return data
    out = bytearray(data[:2])
    position = 2
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            return data
        marker = data[position + 1]
        if marker == 0xFF:
            position += 1
            continue
        if marker == 0xDA:  # start of scan: the rest is image data
            out += data[position:]
            return bytes(out)
        length = int.from_bytes(data[position + 2 : position + 4], "big")
        segment = data[position : position + 2 + length]
        is_metadata = (0xE0 <= marker <= 0xEF and marker not in _KEPT) or marker == 0xFE
        if not is_metadata:
            out += segment
        position += 2 + length
    return data
