"""How a leak is told: where it is, never what it is."""

from __future__ import annotations

from engines.errors import RedactionLeak


class Found(Exception):  # noqa: N818 (a finding, not an error of the verifier)
    """A removed run was found at `place` (a description naming pages, areas,
    object numbers and standard keys only)."""

    def __init__(self, place: str) -> None:
        super().__init__(place)
        self.place = place


def leak(place: str) -> RedactionLeak:
    return RedactionLeak(
        "Redaction could not be verified: removed text is still present in the "
        f"output ({place}). The document was not delivered; please send it to "
        "support so that the redaction engine can be fixed."
    )


# Keys a place may name: the standard ones. Any other key is a name the
# document chose, which may be the removed word itself.
STANDARD_KEYS = frozenset(
    "/Title /Author /Subject /Keywords /Creator /Producer /Contents /T /TU /TM "
    "/V /DV /RV /RC /Opt /NM /Subj /URI /JS /Names /Dests /Outlines /Info /Root "
    "/Metadata /AcroForm /Fields /Kids /Annots /AP /N /D /R /A /AA /OpenAction "
    "/Next /EmbeddedFiles /EF /F /UF /Desc /AF /Pages /Page /Resources /Font "
    "/XObject /ColorSpace /Pattern /Shading /ExtGState /Properties /BaseFont "
    "/FontName /Alt /ActualText /E /Lang /S /K /P /Pg /StructTreeRoot /PageLabels "
    "/OCProperties /OCGs /Name /Threads /PieceInfo /Thumb /MK /CA /RC /AC /Dest "
    "/Type /Subtype /DA /Encoding /Differences /ToUnicode /Parent /First /Last "
    "/Prev /Count /ID /Trailer /RO /OverlayText /Params /Filespec /Collection".split()
)


def key_name(key: str) -> str:
    return key if key in STANDARD_KEYS else "a key"
