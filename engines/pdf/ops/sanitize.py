"""Sanitize: remove what a PDF can carry besides its pages, and count it.

Runs on the qpdf side (pikepdf), once every page operation is done, after the
redaction was verified. Kinds counted in the report (`OpsReport.removed`):
`metadata` (document information entries, private application data),
`xmp` (XMP packets, the document's and any object's), `javascript` (document
scripts, actions that run scripts, trigger dictionaries that hold them, XFA
forms), `embeddedFiles` (attachments, file-attachment annotations, associated
files, portfolios), `externalLinks` (links and actions that reach outside the
document: web addresses, other files, programs, form submission). Links inside
the document stay.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pikepdf
from pikepdf import Array, Dictionary, Name

from engines.pdf.ops.fields import Fields
from engines.pdf.ops.state import RunState

_SCRIPT = frozenset({"/JavaScript"})
# Actions that reach outside the document (ISO 32000-2, 12.6.4).
_EXTERNAL = frozenset(
    {"/URI", "/Launch", "/GoToR", "/GoToE", "/GoToDp", "/SubmitForm", "/ImportData"}
)
_S, _NEXT, _A, _AA = Name("/S"), Name("/Next"), Name("/A"), Name("/AA")
_ANNOTS, _SUBTYPE = Name("/Annots"), Name("/Subtype")
_POPUP, _PARENT = Name("/Popup"), Name("/Parent")


@dataclass(frozen=True, slots=True)
class SanitizeSpec:
    metadata: bool = True
    javascript: bool = True
    embedded_files: bool = True
    external_links: bool = True


def parse(f: Fields) -> SanitizeSpec:
    spec = SanitizeSpec(
        metadata=f.boolean("metadata", True),
        javascript=f.boolean("javascript", True),
        embedded_files=f.boolean("embeddedFiles", True),
        external_links=f.boolean("externalLinks", True),
    )
    if not any(
        (spec.metadata, spec.javascript, spec.embedded_files, spec.external_links)
    ):
        raise f.fail("metadata", "at least one kind of content must be removed")
    return spec


def apply(pdf: pikepdf.Pdf, spec: SanitizeSpec, state: RunState, path: str) -> None:
    root = pdf.Root
    if spec.metadata:
        _metadata(pdf, state)
    if spec.javascript:
        state.count("javascript", _drop_name_tree(root, "/JavaScript"))
        form = root.get("/AcroForm")
        if isinstance(form, Dictionary) and "/XFA" in form:
            del form["/XFA"]
            state.count("javascript")
    if spec.embedded_files:
        state.count("embeddedFiles", _drop_name_tree(root, "/EmbeddedFiles"))
        for key in ("/AF", "/Collection"):
            if key in root:
                del root[key]
                state.count("embeddedFiles")
    _annotations(pdf, spec, state)
    for obj in _dictionaries(pdf):
        _actions(obj, spec, state)
        if spec.metadata and "/Metadata" in obj and obj.objgen != root.objgen:
            del obj["/Metadata"]
            state.count("xmp")


def _metadata(pdf: pikepdf.Pdf, state: RunState) -> None:
    info = pdf.trailer.get("/Info")
    if isinstance(info, Dictionary):
        state.count("metadata", len(info.keys()))
        del pdf.trailer["/Info"]
    root = pdf.Root
    if "/Metadata" in root:
        del root["/Metadata"]
        state.count("xmp")
    if "/PieceInfo" in root:
        del root["/PieceInfo"]
        state.count("metadata")


def _drop_name_tree(root: pikepdf.Object, key: str) -> int:
    names = root.get("/Names")
    if not isinstance(names, Dictionary) or key not in names:
        return 0
    try:
        count = len(pikepdf.NameTree(names[key]))
    except (pikepdf.PdfError, TypeError, ValueError):
        count = 1  # a damaged tree is removed all the same
    del names[key]
    return max(count, 1)


def _annotations(pdf: pikepdf.Pdf, spec: SanitizeSpec, state: RunState) -> None:
    """Attachments and links that leave the document go with their annotation,
    and with its pop-up (which points back at it)."""
    for page in pdf.pages:
        annots = page.obj.get(_ANNOTS)
        if not isinstance(annots, Array):
            continue
        gone: set[tuple[int, int]] = set()
        for annot in annots:
            kind = _annotation_kind(annot, spec)
            if not kind:
                continue
            state.count(kind)
            gone.add(annot.objgen)
            popup = annot.get(_POPUP)
            if isinstance(popup, Dictionary):
                gone.add(popup.objgen)
            for key in (_A, _POPUP):  # counted once, with its annotation
                if key in annot:
                    del annot[key]
        if gone:
            page.obj[_ANNOTS] = Array(
                a for a in annots if a.objgen not in gone and not _child_of(a, gone)
            )


def _child_of(annot: object, gone: set[tuple[int, int]]) -> bool:
    parent = annot.get(_PARENT) if isinstance(annot, Dictionary) else None
    return isinstance(parent, Dictionary) and parent.objgen in gone


def _annotation_kind(annot: object, spec: SanitizeSpec) -> str | None:
    if not isinstance(annot, Dictionary):
        return None
    subtype = annot.get(_SUBTYPE)
    if subtype == Name("/FileAttachment") and spec.embedded_files:
        return "embeddedFiles"
    if subtype == Name("/Link"):
        kind = _bad_action(annot.get(_A), spec)
        if kind:
            return kind
    return None


def _actions(
    obj: Dictionary | pikepdf.Stream, spec: SanitizeSpec, state: RunState
) -> None:
    for key in ("/A", "/OpenAction"):
        kind = _bad_action(obj.get(key), spec)
        if kind:
            del obj[key]
            state.count(kind)
    triggers = obj.get(_AA)
    if isinstance(triggers, Dictionary):
        for trigger in list(triggers.keys()):
            kind = _bad_action(triggers.get(trigger), spec)
            if kind:
                del triggers[trigger]
                state.count(kind)
        if not triggers.keys():
            del obj[_AA]


def _bad_action(action: object, spec: SanitizeSpec) -> str | None:
    """The kind of the first action in the chain that must go, if any."""
    seen: set[tuple[int, int]] = set()
    pending = [action]
    while pending:
        current = pending.pop()
        if isinstance(current, Array):
            pending.extend(current)
            continue
        if not isinstance(current, Dictionary):
            continue
        if current.is_indirect:
            if current.objgen in seen:
                continue
            seen.add(current.objgen)
        kind = str(current.get(_S, ""))
        if kind in _SCRIPT and spec.javascript:
            return "javascript"
        if kind in _EXTERNAL and spec.external_links:
            return "externalLinks"
        if _NEXT in current:
            pending.append(current[_NEXT])
    return None


def _dictionaries(pdf: pikepdf.Pdf) -> Iterator[Dictionary | pikepdf.Stream]:
    """Every indirect dictionary (streams' dictionaries included)."""
    for obj in pdf.objects:
        if isinstance(obj, Dictionary | pikepdf.Stream):
            yield obj
