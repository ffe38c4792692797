"""Document metadata: title, author, subject, keywords.

Written into the document information dictionary, and into the XMP packet when
the document has one (kept consistent; no packet is created, so a sanitized
output stays without one). Runs on the qpdf side, after sanitize: what the
caller sets is what the output says.
"""

from __future__ import annotations

from dataclasses import dataclass

import pikepdf

from engines.pdf.ops.fields import Fields
from engines.pdf.ops.state import RunState

# Wire name → (document information key, XMP property).
KEYS = {
    "title": ("/Title", "dc:title"),
    "author": ("/Author", "dc:creator"),
    "subject": ("/Subject", "dc:description"),
    "keywords": ("/Keywords", "pdf:Keywords"),
}


@dataclass(frozen=True, slots=True)
class MetadataSpec:
    """Each given value replaces the document's; "" clears it; None leaves it."""

    title: str | None = None
    author: str | None = None
    subject: str | None = None
    keywords: str | None = None

    def values(self) -> dict[str, str]:
        given = {
            "title": self.title,
            "author": self.author,
            "subject": self.subject,
            "keywords": self.keywords,
        }
        return {k: v for k, v in given.items() if v is not None}


def parse(f: Fields) -> MetadataSpec:
    keywords = f.raw("keywords")
    if isinstance(keywords, list):
        if not all(isinstance(k, str) for k in keywords):
            raise f.fail("keywords", "must be text or a list of texts")
        keywords = ", ".join(keywords)
    elif keywords is not None and not isinstance(keywords, str):
        raise f.fail("keywords", "must be text or a list of texts")
    spec = MetadataSpec(
        title=f.text("title"),
        author=f.text("author"),
        subject=f.text("subject"),
        keywords=keywords,
    )
    if not spec.values():
        raise f.fail("title", "give at least one of title, author, subject, keywords")
    return spec


def texts(spec: MetadataSpec) -> tuple[str, ...]:
    return tuple(v for v in spec.values().values() if v)


def apply(pdf: pikepdf.Pdf, spec: MetadataSpec, state: RunState, path: str) -> None:
    values = spec.values()
    info = pdf.trailer.get("/Info")
    if not isinstance(info, pikepdf.Dictionary):
        info = pdf.make_indirect(pikepdf.Dictionary())
        pdf.trailer["/Info"] = info
    for name, value in values.items():
        key = KEYS[name][0]
        if value:
            info[key] = pikepdf.String(value)
        elif key in info:
            del info[key]
    if "/Metadata" not in pdf.Root:
        return
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as xmp:
        for name, value in values.items():
            prop = KEYS[name][1]
            if not value:
                if prop in xmp:
                    del xmp[prop]
            elif prop == "dc:creator":
                xmp[prop] = [value]
            else:
                xmp[prop] = value
