"""Magic numbers of the binary formats the service knows."""

from __future__ import annotations

from engines.convert.detect.legacy import sniff_legacy_binary
from engines.convert.types import Detected, Family

_PDF = Detected("application/pdf", Family.PDF, "pdf", "PDF document")
_ZIP = Detected("application/zip", Family.ARCHIVE, "zip", "ZIP archive")
# A compound file (OLE2): what it holds is read from its directory (ole.py).
_OLE = Detected("application/x-ole-storage", Family.UNKNOWN, "", "compound file")
_RTF = Detected("application/rtf", Family.OFFICE, "rtf", "RTF document")

# (offset, magic, result): checked in order against the first bytes.
_MAGIC: tuple[tuple[int, bytes, Detected], ...] = (
    (0, b"PK\x03\x04", _ZIP),
    (0, b"PK\x05\x06", _ZIP),  # an empty archive
    (0, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", _OLE),
    (0, b"{\\rtf", _RTF),
    (0, b"\x89PNG\r\n\x1a\n", Detected("image/png", Family.IMAGE, "png", "PNG image")),
    (0, b"\xff\xd8\xff", Detected("image/jpeg", Family.IMAGE, "jpg", "JPEG image")),
    (0, b"GIF87a", Detected("image/gif", Family.IMAGE, "gif", "GIF image")),
    (0, b"GIF89a", Detected("image/gif", Family.IMAGE, "gif", "GIF image")),
    (0, b"II*\x00", Detected("image/tiff", Family.IMAGE, "tif", "TIFF image")),
    (0, b"MM\x00*", Detected("image/tiff", Family.IMAGE, "tif", "TIFF image")),
    (0, b"II+\x00", Detected("image/tiff", Family.IMAGE, "tif", "BigTIFF image")),
    (0, b"MM\x00+", Detected("image/tiff", Family.IMAGE, "tif", "BigTIFF image")),
    (0, b"OggS", Detected("audio/ogg", Family.MEDIA, "ogg", "Ogg audio")),
    (0, b"fLaC", Detected("audio/flac", Family.MEDIA, "flac", "FLAC audio")),
    (0, b"ID3", Detected("audio/mpeg", Family.MEDIA, "mp3", "MP3 audio")),
    (0, b"FLV\x01", Detected("video/x-flv", Family.MEDIA, "flv", "Flash video")),
    (0, b"\x00\x00\x01\xba", Detected("video/mpeg", Family.MEDIA, "mpg", "MPEG video")),
    (0, b"\x00\x00\x01\xb3", Detected("video/mpeg", Family.MEDIA, "mpg", "MPEG video")),
    (
        0,
        b"\x30\x26\xb2\x75\x8e\x66\xcf\x11",
        Detected("video/x-ms-asf", Family.MEDIA, "wmv", "Windows Media file"),
    ),
    (0, b"MThd", Detected("audio/midi", Family.MEDIA, "mid", "MIDI audio")),
    # Archives the service does not open: known, but not containers here.
    (0, b"7z\xbc\xaf\x27\x1c", Detected("application/x-7z-compressed", Family.UNKNOWN)),
    (0, b"Rar!\x1a\x07", Detected("application/vnd.rar", Family.UNKNOWN)),
    (0, b"\x1f\x8b", Detected("application/gzip", Family.UNKNOWN)),
    (0, b"BZh", Detected("application/x-bzip2", Family.UNKNOWN)),
    (0, b"\xfd7zXZ\x00", Detected("application/x-xz", Family.UNKNOWN)),
    (257, b"ustar", Detected("application/x-tar", Family.UNKNOWN)),
    (0, b"\x7fELF", Detected("application/x-executable", Family.UNKNOWN)),
    (0, b"MZ", Detected("application/x-msdownload", Family.UNKNOWN)),
)

# RIFF containers: the form type at offset 8 says what they hold.
_RIFF = {
    b"WAVE": Detected("audio/wav", Family.MEDIA, "wav", "WAV audio"),
    b"AVI ": Detected("video/x-msvideo", Family.MEDIA, "avi", "AVI video"),
    b"WEBP": Detected("image/webp", Family.IMAGE, "webp", "WebP image"),
}
_AIFF = Detected("audio/aiff", Family.MEDIA, "aiff", "AIFF audio")

# ISO base media files (MP4, QuickTime, 3GP, HEIF...): the major brand at 8.
_QUICKTIME = Detected("video/quicktime", Family.MEDIA, "mov", "QuickTime video")
_MP4 = Detected("video/mp4", Family.MEDIA, "mp4", "MP4 video")
_BRANDS = {
    b"qt  ": _QUICKTIME,
    b"M4A ": Detected("audio/mp4", Family.MEDIA, "m4a", "MPEG-4 audio"),
    b"M4B ": Detected("audio/mp4", Family.MEDIA, "m4b", "MPEG-4 audio book"),
    b"3gp4": Detected("video/3gpp", Family.MEDIA, "3gp", "3GPP video"),
    b"3gp5": Detected("video/3gpp", Family.MEDIA, "3gp", "3GPP video"),
    b"3g2a": Detected("video/3gpp2", Family.MEDIA, "3g2", "3GPP2 video"),
    b"heic": Detected("image/heic", Family.IMAGE, "heic", "HEIC image"),
    b"heix": Detected("image/heic", Family.IMAGE, "heic", "HEIC image"),
    b"mif1": Detected("image/heif", Family.IMAGE, "heif", "HEIF image"),
    b"avif": Detected("image/avif", Family.IMAGE, "avif", "AVIF image"),
}
_MATROSKA = Detected("video/x-matroska", Family.MEDIA, "mkv", "Matroska video")
_WEBM = Detected("video/webm", Family.MEDIA, "webm", "WebM video")
_MP3 = Detected("audio/mpeg", Family.MEDIA, "mp3", "MP3 audio")
_BMP = Detected("image/bmp", Family.IMAGE, "bmp", "BMP image")
_MPEG_TS = Detected("video/mp2t", Family.MEDIA, "ts", "MPEG transport stream")


def sniff_binary(head: bytes) -> Detected | None:
    """The format of a file starting with `head`, or None for text and the
    unknown. A PDF header may follow up to 1 KiB of junk, as readers allow, but
    a magic number at the start wins: a ZIP whose first entry is a stored PDF
    holds "%PDF-" in its first kilobyte too."""
    if head.startswith(b"%PDF-"):
        return _PDF
    for offset, magic, found in _MAGIC:
        if head[offset : offset + len(magic)] == magic:
            return found
    if b"%PDF-" in head[:1024]:
        return _PDF
    legacy = sniff_legacy_binary(head)
    if legacy is not None:
        return legacy
    return _riff(head) or _iso_media(head) or _other_media(head) or _bmp(head)


def _riff(head: bytes) -> Detected | None:
    if head[:4] == b"RIFF":
        return _RIFF.get(head[8:12])
    if head[:4] == b"FORM" and head[8:12] in (b"AIFF", b"AIFC"):
        return _AIFF
    return None


def _iso_media(head: bytes) -> Detected | None:
    if head[4:8] != b"ftyp":
        return None
    brand = head[8:12]
    if brand in _BRANDS:
        return _BRANDS[brand]
    return _MP4  # isom, mp41, mp42, avc1, dash... all play as MP4


def _other_media(head: bytes) -> Detected | None:
    if head[:4] == b"\x1a\x45\xdf\xa3":  # EBML: Matroska or WebM
        return _WEBM if b"webm" in head[:64] else _MATROSKA
    # An MPEG audio frame header: 11 sync bits, then layer III of MPEG-1/2.
    if len(head) >= 2 and head[0] == 0xFF and head[1] in (0xFB, 0xF3, 0xF2, 0xFA):
        return _MP3
    # MPEG-TS: a 0x47 sync byte every 188 bytes.
    if len(head) >= 188 * 4 and all(head[i * 188] == 0x47 for i in range(4)):
        return _MPEG_TS
    return None


def _bmp(head: bytes) -> Detected | None:
    # "BM" alone starts many text files: the DIB header size must be one of
    # the known ones and the reserved fields zero.
    if head[:2] != b"BM" or len(head) < 18:
        return None
    dib = int.from_bytes(head[14:18], "little")
    if head[6:10] == b"\x00\x00\x00\x00" and dib in (12, 40, 52, 56, 64, 108, 124):
        return _BMP
    return None
