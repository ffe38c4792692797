"""Page fingerprints: identical pages are neither extracted nor diffed word by word."""

from __future__ import annotations

import hashlib
import logging
import re

import pymupdf

logger = logging.getLogger(__name__)

_REF = re.compile(rb"(\d+) (\d+) R")


class Fingerprinter:
    """Digests of what determines a page's text, comparable across documents.

    A page's text is a function of its content stream, its resources (fonts,
    form XObjects, resolved deeply, stream bytes included), its boxes and rotation,
    and the annotation appearances PyMuPDF also extracts. Pages with annotations
    or form fields get no fingerprint and are always extracted.
    """

    def __init__(self, doc: pymupdf.Document) -> None:
        self.doc = doc
        self.memo: dict[int, bytes] = {}
        self.salt = self._catalog_salt()

    def page(self, index: int) -> bytes | None:
        """A cheap first digest: content stream, boxes, rotation (None: no shortcut)."""
        try:
            page = self.doc[index]
            # MuPDF keeps links apart and never draws them; any other annotation
            # or widget may show text, so such pages are always extracted.
            if page.first_annot is not None or page.first_widget is not None:
                return None
            digest = hashlib.sha1(self.salt)
            geometry_key = (page.rotation, tuple(page.cropbox), tuple(page.mediabox))
            digest.update(repr(geometry_key).encode())
            digest.update(hashlib.sha1(page.read_contents()).digest())
            return digest.digest()
        except Exception:  # a damaged page is simply extracted
            logger.debug("no fingerprint for page %d", index, exc_info=True)
            return None

    def full(self, index: int, first: bytes) -> bytes | None:
        """`first` completed with the page's resources, resolved deeply."""
        try:
            resources = self._resources(self.doc.page_xref(index))
        except Exception:
            logger.debug("no fingerprint for page %d", index, exc_info=True)
            return None
        return hashlib.sha1(first + resources).digest()

    def _catalog_salt(self) -> bytes:
        # Optional-content settings change what is visible (and extracted).
        try:
            catalog = self.doc.pdf_catalog()
            kind, value = self.doc.xref_get_key(catalog, "OCProperties")
        except Exception:
            return b"no catalog"
        return self._value(value) if kind != "null" else b""

    def _resources(self, xref: int) -> bytes:
        # Resources may be inherited from an ancestor in the page tree.
        for _ in range(64):
            kind, value = self.doc.xref_get_key(xref, "Resources")
            if kind != "null":
                return self._value(value)
            parent_kind, parent = self.doc.xref_get_key(xref, "Parent")
            if parent_kind != "xref":
                return b"no resources"
            xref = int(parent.split()[0])
        return b"no resources"

    def _value(self, source: str) -> bytes:
        parts = _REF.split(source.encode())
        digest = hashlib.sha1(parts[0])
        for i in range(1, len(parts), 3):
            digest.update(self._object(int(parts[i])))
            digest.update(parts[i + 2])
        return digest.digest()

    def _object(self, xref: int) -> bytes:
        if xref in self.memo:
            return self.memo[xref]
        self.memo[xref] = b"cycle"
        try:
            source = self.doc.xref_object(xref, compressed=True)
        except Exception:
            source = "missing"
        if self.doc.xref_get_key(xref, "Type")[1] in ("/Page", "/Pages"):
            # Links back into the page tree say nothing about this page's text.
            result = b"page"
        else:
            result = self._value(source)
            if self.doc.xref_is_stream(xref):
                stream = self.doc.xref_stream_raw(xref) or b""
                result = hashlib.sha1(result + hashlib.sha1(stream).digest()).digest()
        self.memo[xref] = result
        return result
