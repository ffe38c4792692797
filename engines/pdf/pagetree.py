"""A PDF's pages as the upload's layout needs them, read from the page tree.

PyMuPDF's `Document` reads the whole outline when it opens a file, and loading a
page (`doc[n]`) also reads its annotations, links and transparency groups; the
layout needs only the page count, the title and each page's displayed box and
/Rotate, which MuPDF computes from the page object alone. On a 1,158-page manual
this takes half the time of opening it with PyMuPDF and loading every page, for
the same figures (a test compares them with `Page.rect` and `Page.rotation` over
the corpus).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pymupdf

_mupdf = pymupdf.mupdf
_ROTATE = _mupdf.PDF_ENUM_NAME_Rotate
_RESOURCES = _mupdf.PDF_ENUM_NAME_Resources
_FONT = _mupdf.PDF_ENUM_NAME_Font
_XOBJECT = _mupdf.PDF_ENUM_NAME_XObject
_SUBTYPE = _mupdf.PDF_ENUM_NAME_Subtype
_IMAGE = _mupdf.PDF_ENUM_NAME_Image
_TITLE = "info:Title"


@dataclass(frozen=True, slots=True)
class PageEntry:
    """One page: its displayed size in points (CropBox, /Rotate applied), its
    rotation (0, 90, 180 or 270) and whether it may be a scan."""

    width: float
    height: float
    rotation: int
    may_be_scan: bool


class PageTree:
    """A PDF opened with MuPDF for its page tree alone. Opening it and reading
    its pages raise MuPDF's errors (`pymupdf.mupdf.FzErrorBase`) for what MuPDF
    cannot read."""

    def __init__(self, path: str) -> None:
        self._pdf = _mupdf.pdf_open_document(path)

    def needs_password(self, password: str) -> bool:
        """Whether the file stays locked: encrypted, and `password` does not
        open it (MuPDF tries the empty password on its own)."""
        if not _mupdf.pdf_needs_password(self._pdf):
            return False
        return not _mupdf.pdf_authenticate_password(self._pdf, password)

    @property
    def page_count(self) -> int:
        return int(_mupdf.pdf_count_pages(self._pdf))

    def title(self) -> str:
        """The document information's /Title, "" when there is none."""
        try:
            return str(_mupdf.fz_lookup_metadata2(_mupdf.FzDocument(self._pdf), _TITLE))
        except _mupdf.FzErrorBase:
            return ""

    def pages(self, *, find_scans: bool) -> Iterator[PageEntry]:
        """Every page in order. `find_scans`: also tell the pages whose resources
        hold an image and no font, in the page or in its forms (the OCR engine
        decides per page); False for every page otherwise."""
        for number in range(self.page_count):
            obj = _mupdf.pdf_lookup_page_obj(self._pdf, number)
            box, ctm = _mupdf.FzRect(), _mupdf.FzMatrix()
            # What MuPDF's page bound is made of (pdf_bound_page): the CropBox
            # within the MediaBox, UserUnit and /Rotate as a transform.
            _mupdf.pdf_page_obj_transform(obj, box, ctm)
            rect = _mupdf.fz_transform_rect(box, ctm)
            rotate = _mupdf.pdf_to_int(_mupdf.pdf_dict_get_inheritable(obj, _ROTATE))
            yield PageEntry(
                width=rect.x1 - rect.x0,
                height=rect.y1 - rect.y0,
                rotation=_normal_rotation(rotate),
                may_be_scan=find_scans and _images_without_fonts(obj),
            )


def _normal_rotation(rotate: int) -> int:
    """/Rotate as readers apply it: a multiple of 90 in [0, 360), else 0."""
    rotate %= 360
    return rotate if rotate % 90 == 0 else 0


def _images_without_fonts(page: pymupdf.mupdf.PdfObj) -> bool:
    resources = _mupdf.pdf_dict_get_inheritable(page, _RESOURCES)
    found = _Found()
    _scan(resources, found, set())
    return found.image and not found.font


@dataclass(slots=True)
class _Found:
    image: bool = False
    font: bool = False


def _scan(resources: pymupdf.mupdf.PdfObj, found: _Found, seen: set[int]) -> None:
    """Look through `resources` and those of the forms they use for a font (which
    ends the look) and an image. `seen`: forms already looked into (a form may
    use itself)."""
    if not _mupdf.pdf_is_dict(resources):
        return
    fonts = _mupdf.pdf_dict_get(resources, _FONT)
    for index in range(_mupdf.pdf_dict_len(fonts)):
        if _mupdf.pdf_is_dict(_mupdf.pdf_dict_get_val(fonts, index)):
            found.font = True
            return
    xobjects = _mupdf.pdf_dict_get(resources, _XOBJECT)
    for index in range(_mupdf.pdf_dict_len(xobjects)):
        xobject = _mupdf.pdf_dict_get_val(xobjects, index)
        if not _mupdf.pdf_is_dict(xobject):
            continue
        if _mupdf.pdf_name_eq(_mupdf.pdf_dict_get(xobject, _SUBTYPE), _IMAGE):
            found.image = True
            continue
        number = _mupdf.pdf_to_num(xobject)  # 0: a direct object, in no cycle
        if number:
            if number in seen:
                continue
            seen.add(number)
        _scan(_mupdf.pdf_dict_get(xobject, _RESOURCES), found, seen)
        if found.font:
            return
