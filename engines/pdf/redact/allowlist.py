"""What a redacted output keeps: each kind of object, the entries it may have.

An entry maps to the kind of its value: `KEEP` (numbers, names, arrays of
them, strings scrubbed), a kind below (the value is cleaned as that kind), or
`MAP + kind` (a dictionary whose every value is of that kind: resources by
name, appearance states). Entries not listed are dropped, and so is whatever
only they lead to. Kinds that depend on a /Subtype or /Type are chosen by
`kind_of`.
"""

from __future__ import annotations

from pikepdf import Dictionary, Name, Stream

KEEP = "keep"
MAP = "map:"

_BOXES = {
    k: KEEP for k in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox", "/ArtBox")
}
_FORM_KEYS = {
    "/Type": KEEP, "/Subtype": KEEP, "/FormType": KEEP, "/BBox": KEEP,
    "/Matrix": KEEP, "/Resources": "resources", "/Group": "group",
    "/StructParent": KEEP, "/StructParents": KEEP, "/OC": "oc", "/Name": KEEP,
}  # fmt: skip
_ANNOT_KEYS = {
    "/Type": KEEP, "/Subtype": KEEP, "/Rect": KEEP, "/Contents": KEEP, "/P": KEEP,
    "/NM": KEEP, "/M": KEEP, "/F": KEEP, "/AP": "appearances", "/AS": KEEP,
    "/Border": KEEP, "/C": KEEP, "/StructParent": KEEP, "/OC": "oc",
    "/BS": "plain", "/BE": "plain", "/T": KEEP, "/Popup": KEEP, "/CA": KEEP,
    "/ca": KEEP, "/RC": KEEP, "/CreationDate": KEEP, "/IRT": KEEP, "/Subj": KEEP,
    "/RT": KEEP, "/IT": KEEP, "/IC": KEEP, "/RD": KEEP, "/QuadPoints": KEEP,
    "/L": KEEP, "/LE": KEEP, "/LL": KEEP, "/LLE": KEEP, "/Cap": KEEP,
    "/LLO": KEEP, "/CP": KEEP, "/CO": KEEP, "/Vertices": KEEP, "/InkList": KEEP,
    "/Open": KEEP, "/Name": KEEP, "/State": KEEP, "/StateModel": KEEP,
    "/DA": KEEP, "/Q": KEEP, "/DS": KEEP, "/CL": KEEP, "/Sy": KEEP,
    "/Parent": KEEP, "/H": KEEP, "/MK": "mk", "/A": "action", "/Dest": "dest",
    "/PA": "action", "/Path": KEEP,
    # Redact annotations waiting to be applied (their overlay form goes: a
    # viewer draws the overlay text instead).
    "/OverlayText": KEEP, "/Repeat": KEEP,
}  # fmt: skip
_FIELD_KEYS = {
    "/FT": KEEP, "/Parent": "field", "/Kids": "fields", "/T": KEEP, "/TU": KEEP,
    "/TM": KEEP, "/Ff": KEEP, "/V": KEEP, "/DV": KEEP, "/DA": KEEP, "/Q": KEEP,
    "/DS": KEEP, "/RV": KEEP, "/Opt": KEEP, "/TI": KEEP, "/I": KEEP,
    "/MaxLen": KEEP,
}  # fmt: skip

KINDS: dict[str, dict[str, str]] = {
    "page": {
        **_BOXES,
        "/Type": KEEP,
        "/Rotate": KEEP,
        "/UserUnit": KEEP,
        "/Resources": "resources",
        "/Contents": "contents",
        "/Annots": "annots",
        "/Group": "group",
        "/Tabs": KEEP,
        "/StructParents": KEEP,
        "/Parent": KEEP,
    },  # fmt: skip
    "resources": {
        "/Font": MAP + "font",
        "/XObject": MAP + "xobject",
        "/ExtGState": MAP + "gstate",
        "/ColorSpace": MAP + "colorspace",
        "/Pattern": MAP + "pattern",
        "/Shading": MAP + "shading",
        "/Properties": MAP + "properties",
        "/ProcSet": KEEP,
    },  # fmt: skip
    "font": {
        "/Type": KEEP,
        "/Subtype": KEEP,
        "/BaseFont": KEEP,
        "/Encoding": "encoding",
        "/FirstChar": KEEP,
        "/LastChar": KEEP,
        "/Widths": KEEP,
        "/FontDescriptor": "fontdescriptor",
        "/ToUnicode": "binary",
        "/DescendantFonts": "cidfonts",
        "/FontBBox": KEEP,
        "/FontMatrix": KEEP,
        "/CharProcs": MAP + "glyph",
        "/Resources": "resources",
        "/Name": KEEP,
    },  # fmt: skip
    "cidfont": {
        "/Type": KEEP,
        "/Subtype": KEEP,
        "/BaseFont": KEEP,
        "/CIDSystemInfo": KEEP,
        "/FontDescriptor": "fontdescriptor",
        "/DW": KEEP,
        "/W": KEEP,
        "/DW2": KEEP,
        "/W2": KEEP,
        "/CIDToGIDMap": "binary",
    },  # fmt: skip
    "fontdescriptor": {
        "/Type": KEEP,
        "/FontName": KEEP,
        "/FontFamily": KEEP,
        "/FontStretch": KEEP,
        "/FontWeight": KEEP,
        "/Flags": KEEP,
        "/FontBBox": KEEP,
        "/ItalicAngle": KEEP,
        "/Ascent": KEEP,
        "/Descent": KEEP,
        "/Leading": KEEP,
        "/CapHeight": KEEP,
        "/XHeight": KEEP,
        "/StemV": KEEP,
        "/StemH": KEEP,
        "/AvgWidth": KEEP,
        "/MaxWidth": KEEP,
        "/MissingWidth": KEEP,
        "/FontFile": "binary",
        "/FontFile2": "binary",
        "/FontFile3": "binary",
        "/CharSet": KEEP,
        "/Style": KEEP,
        "/Lang": KEEP,
        "/FD": KEEP,
        "/CIDSet": "binary",
    },  # fmt: skip
    "encoding": {"/Type": KEEP, "/BaseEncoding": KEEP, "/Differences": KEEP},
    "image": {
        "/Type": KEEP,
        "/Subtype": KEEP,
        "/Width": KEEP,
        "/Height": KEEP,
        "/ColorSpace": "colorspace",
        "/BitsPerComponent": KEEP,
        "/Intent": KEEP,
        "/ImageMask": KEEP,
        "/Mask": "mask",
        "/Decode": KEEP,
        "/Interpolate": KEEP,
        "/SMask": "image",
        "/SMaskInData": KEEP,
        "/Filter": KEEP,
        "/DecodeParms": "decodeparms",
        "/StructParent": KEEP,
        "/OC": "oc",
        "/Matte": KEEP,
    },  # fmt: skip
    "decodeparms": {
        "/Predictor": KEEP,
        "/Colors": KEEP,
        "/BitsPerComponent": KEEP,
        "/Columns": KEEP,
        "/EarlyChange": KEEP,
        "/K": KEEP,
        "/EndOfLine": KEEP,
        "/EncodedByteAlign": KEEP,
        "/Rows": KEEP,
        "/EndOfBlock": KEEP,
        "/BlackIs1": KEEP,
        "/DamagedRowsBeforeError": KEEP,
        "/JBIG2Globals": "binary",
        "/ColorTransform": KEEP,
    },  # fmt: skip
    "form": _FORM_KEYS,
    "glyph": {"/Resources": "resources"},
    "tiling": {
        **_FORM_KEYS,
        "/PatternType": KEEP,
        "/PaintType": KEEP,
        "/TilingType": KEEP,
        "/XStep": KEEP,
        "/YStep": KEEP,
    },  # fmt: skip
    "shadingpattern": {
        "/Type": KEEP,
        "/PatternType": KEEP,
        "/Shading": "shading",
        "/Matrix": KEEP,
        "/ExtGState": "gstate",
    },  # fmt: skip
    "shading": {
        "/ShadingType": KEEP,
        "/ColorSpace": "colorspace",
        "/Background": KEEP,
        "/BBox": KEEP,
        "/AntiAlias": KEEP,
        "/Coords": KEEP,
        "/Domain": KEEP,
        "/Function": "function",
        "/Extend": KEEP,
        "/Matrix": KEEP,
        "/BitsPerCoordinate": KEEP,
        "/BitsPerComponent": KEEP,
        "/BitsPerFlag": KEEP,
        "/Decode": KEEP,
        "/VerticesPerRow": KEEP,
        "/Filter": KEEP,
        "/DecodeParms": "decodeparms",
    },  # fmt: skip
    "function": {
        "/FunctionType": KEEP,
        "/Domain": KEEP,
        "/Range": KEEP,
        "/Size": KEEP,
        "/BitsPerSample": KEEP,
        "/Order": KEEP,
        "/Encode": KEEP,
        "/Decode": KEEP,
        "/C0": KEEP,
        "/C1": KEEP,
        "/N": KEEP,
        "/Functions": "functions",
        "/Bounds": KEEP,
        "/Filter": KEEP,
        "/DecodeParms": "decodeparms",
    },  # fmt: skip
    "gstate": {
        **{
            k: KEEP
            for k in (
                "/Type",
                "/LW",
                "/LC",
                "/LJ",
                "/ML",
                "/D",
                "/RI",
                "/OP",
                "/op",
                "/OPM",
                "/FL",
                "/SM",
                "/SA",
                "/BM",
                "/CA",
                "/ca",
                "/AIS",
                "/TK",
                "/UseBlackPtComp",
                "/HTO",
            )
        },
        "/Font": KEEP,
        "/SMask": "smask",
        "/BG": "function",
        "/BG2": "function",
        "/UCR": "function",
        "/UCR2": "function",
        "/TR": "function",
        "/TR2": "function",
        "/HT": "binary",
    },  # fmt: skip
    "smask": {
        "/Type": KEEP,
        "/S": KEEP,
        "/G": "form",
        "/BC": KEEP,
        "/TR": "function",
    },
    "group": {"/Type": KEEP, "/S": KEEP, "/CS": "colorspace", "/I": KEEP, "/K": KEEP},
    "ocg": {"/Type": KEEP, "/Name": KEEP, "/Intent": KEEP},
    "ocmd": {"/Type": KEEP, "/OCGs": "ocs", "/P": KEEP, "/VE": KEEP},
    "marked": {
        "/MCID": KEEP,
        "/Lang": KEEP,
        "/ActualText": KEEP,
        "/Alt": KEEP,
        "/E": KEEP,
    },  # fmt: skip
    "annot": _ANNOT_KEYS,
    "widget": {**_ANNOT_KEYS, **_FIELD_KEYS},
    "field": _FIELD_KEYS,
    "appearances": {"/N": "states", "/R": "states", "/D": "states"},
    "mk": {
        "/R": KEEP,
        "/BC": KEEP,
        "/BG": KEEP,
        "/CA": KEEP,
        "/RC": KEEP,
        "/AC": KEEP,
        "/I": "form",
        "/RI": "form",
        "/IX": "form",
        "/IF": "plain",
        "/TP": KEEP,
    },  # fmt: skip
    "plain": {k: KEEP for k in ("/Type", "/W", "/S", "/D", "/I", "/SW", "/A", "/FB")},
    "uri": {"/Type": KEEP, "/S": KEEP, "/URI": KEEP},
    "goto": {"/Type": KEEP, "/S": KEEP, "/D": "dest"},
    "acroform": {
        "/Fields": "fields",
        "/NeedAppearances": KEEP,
        "/SigFlags": KEEP,
        "/DA": KEEP,
        "/DR": "resources",
        "/Q": KEEP,
    },  # fmt: skip
}

# Annotation subtypes kept (rebuilt from scrubbed values); others go.
ANNOTATIONS = frozenset(
    "/Text /Link /FreeText /Line /Square /Circle /Polygon /PolyLine /Highlight "
    "/Underline /Squiggly /StrikeOut /Caret /Ink /Stamp /Popup /Widget /Redact".split()
)
# Streams kept as their bytes (fonts, character maps, halftones...).
BINARY = "binary"


def kind_of(kind: str, obj: Dictionary | Stream) -> str | None:
    """The concrete kind of `obj` reached as `kind`; None drops it."""
    subtype = str(obj.get(Name.Subtype, ""))
    if kind == "xobject":
        return {"/Image": "image", "/Form": "form"}.get(subtype)
    if kind == "font":
        return "font"
    if kind == "pattern":
        pattern = obj.get("/PatternType")
        return {1: "tiling", 2: "shadingpattern"}.get(
            int(pattern) if isinstance(pattern, int) else 0
        )
    if kind == "properties":
        kind_name = str(obj.get(Name.Type, ""))
        return {"/OCG": "ocg", "/OCMD": "ocmd"}.get(kind_name, "marked")
    if kind == "oc":
        return "ocmd" if obj.get(Name.Type) == Name("/OCMD") else "ocg"
    if kind == "annot":
        if subtype not in ANNOTATIONS:
            return None
        return "widget" if subtype == "/Widget" else "annot"
    if kind == "action":
        action = str(obj.get(Name.S, ""))
        return {"/URI": "uri", "/GoTo": "goto"}.get(action)
    if kind == "mask":
        return "image" if isinstance(obj, Stream) else None
    return kind
