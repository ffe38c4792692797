"""Names that are PDF's own words, not the document's.

A dictionary key such as /First, a value such as /Span or /Helvetica, is the
file format speaking: a removed word equal to it (a zone over a form's
"First name") does not make it a copy of that word. Names outside this
vocabulary (resource names, button states, spot colours, keys a producer
made up) are read as the document's text.
"""

from __future__ import annotations

import pymupdf

_PREFIX = "PDF_ENUM_NAME_"
# MuPDF's table of the names it knows (keys and values of the standard).
_KNOWN = {
    name[len(_PREFIX) :] for name in dir(pymupdf.mupdf) if name.startswith(_PREFIX)
}
_STANDARD_FONTS = {
    "Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique",
    "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique",
    "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic", "Symbol",
    "ZapfDingbats", "Arial", "Arial,Bold", "Arial,Italic", "Arial,BoldItalic",
    "TimesNewRoman", "TimesNewRoman,Bold", "CourierNew",
}  # fmt: skip
_STRUCTURE = {
    "Document", "Part", "Art", "Sect", "Div", "BlockQuote", "Caption", "TOC", "TOCI",
    "Index", "NonStruct", "Private", "H", "H1", "H2", "H3", "H4", "H5", "H6", "P",
    "L", "LI", "Lbl", "LBody", "Table", "TR", "TH", "TD", "THead", "TBody",
    "TFoot", "Span", "Quote", "Note", "Reference", "BibEntry", "Code", "Link",
    "Annot", "Ruby", "RB", "RT", "RP", "Warichu", "WT", "WP", "Figure", "Formula",
    "Form", "Artifact", "OC", "Tx", "Title", "FENote", "Sub", "Em", "Strong",
    "Aside", "DocumentFragment", "Layout", "PrintField", "List",
    "Pagination", "Header", "Footer", "Watermark", "Background", "Top", "Bottom",
    "BBox", "Attached", "Subtype", "Type", "MCID", "ActualText", "Alt", "E", "Lang",
    "Off", "On", "Yes", "No", "NeedAppearances", "Mask", "Luminosity", "Alpha",
    "WinAnsiEncoding", "MacRomanEncoding", "StandardEncoding", "PDFDocEncoding",
    "Identity-H", "Identity-V", "Identity", "DeviceRGB", "DeviceGray", "DeviceCMYK",
}  # fmt: skip
SYNTAX = frozenset(_KNOWN | _STANDARD_FONTS | _STRUCTURE)


def is_syntax(name: str) -> bool:
    """Whether the name (with or without its slash) is one of PDF's own."""
    return (name[1:] if name.startswith("/") else name) in SYNTAX
