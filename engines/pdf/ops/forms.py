"""Fill AcroForm fields by name; flatten fields and annotations into the content.

Both run before anything is drawn or redacted: a filled value flattened into
the page is content, so a redaction over it removes it like any other text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pymupdf

from engines.errors import InvalidOperation
from engines.pdf.ops.fields import MAX_TEXT, Fields
from engines.pdf.ops.state import RunState

MAX_VALUES = 5_000
Value = str | bool | tuple[str, ...]
_CHECKBOX = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
_RADIO = pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON
_TEXT = pymupdf.PDF_WIDGET_TYPE_TEXT
_CHOICES = (pymupdf.PDF_WIDGET_TYPE_COMBOBOX, pymupdf.PDF_WIDGET_TYPE_LISTBOX)


@dataclass(frozen=True, slots=True)
class FillSpec:
    """`values`: fully qualified field name (`form.person.name`) → its value:
    text for a text field (numbers are written as text), true/false or the
    "on" state name for a checkbox, the chosen button's export value for a
    radio group, an option (or a list, for a multiple-choice list box) for a
    choice field. `flatten`: draw the filled form into the pages afterwards."""

    values: Mapping[str, Value] = field(default_factory=dict)
    flatten: bool = False


@dataclass(frozen=True, slots=True)
class FlattenSpec:
    """Draw form fields (`forms`) and annotations (`annotations`) into the page
    content; links stay links."""

    forms: bool = True
    annotations: bool = True


def parse_fill(f: Fields) -> FillSpec:
    raw = f.raw("values")
    if not isinstance(raw, Mapping) or not raw:
        raise f.fail("values", "must be a non-empty object of field name → value")
    if len(raw) > MAX_VALUES:
        raise f.fail("values", f"must have at most {MAX_VALUES} fields")
    values: dict[str, Value] = {}
    for name, value in raw.items():
        values[name] = _value(value, f"{f.at('values')}.{name}")
    return FillSpec(values=values, flatten=f.boolean("flatten", False))


def _value(value: Any, where: str) -> Value:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(value, str) and len(value) <= MAX_TEXT:
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise InvalidOperation(
        where,
        f"must be text (at most {MAX_TEXT} characters), a number, true/false "
        "or a list of options",
    )


def parse_flatten(f: Fields) -> FlattenSpec:
    spec = FlattenSpec(
        forms=f.boolean("forms", True), annotations=f.boolean("annotations", True)
    )
    if not (spec.forms or spec.annotations):
        raise f.fail("forms", "one of forms and annotations must be true")
    return spec


def fill_texts(spec: FillSpec) -> tuple[str, ...]:
    found: list[str] = []
    for value in spec.values.values():
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, tuple):
            found.extend(value)
    return tuple(found)


def fill(doc: pymupdf.Document, spec: FillSpec, state: RunState, path: str) -> None:
    """Set each named field on every widget it has, then its appearance."""
    seen: set[str] = set()
    radios_set: set[str] = set()
    for page in doc:
        for widget in page.widgets():
            name = widget.field_name
            if name not in spec.values:
                continue
            where = f"{path}.values.{name}"
            value = spec.values[name]
            if _set(widget, value, where):
                radios_set.add(name)
            widget.update()
            if widget.field_type in (_CHECKBOX, _RADIO):
                _plain_dingbats(doc, widget.xref)
            seen.add(name)
    for name in spec.values:
        where = f"{path}.values.{name}"
        if name not in seen:
            raise InvalidOperation(where, "no form field of that name in the output")
        radio = isinstance(spec.values[name], str) and _is_radio(doc, name)
        if radio and name not in radios_set:
            raise InvalidOperation(where, "is none of the radio buttons' values")
    state.filled.extend(sorted(seen))
    if spec.flatten:
        flatten(doc, FlattenSpec(forms=True, annotations=False), state, path)


def _set(widget: pymupdf.Widget, value: Value, where: str) -> bool:
    """Set one widget; True when it is a radio button turned on."""
    kind = widget.field_type
    if kind == _TEXT:
        if not isinstance(value, str):
            raise InvalidOperation(where, "a text field takes text")
        widget.field_value = value
    elif kind == _CHECKBOX:
        on = widget.on_state()
        if isinstance(value, bool):
            widget.field_value = on if value else "Off"
        elif value in (on, "Off"):
            widget.field_value = value
        else:
            raise InvalidOperation(where, f"a checkbox takes true, false or {on!r}")
    elif kind == _RADIO:
        if not isinstance(value, str):
            raise InvalidOperation(where, "a radio group takes its button's value")
        chosen = widget.on_state() == value
        widget.field_value = value if chosen else "Off"
        return chosen
    elif kind in _CHOICES:
        options = [
            o[0] if isinstance(o, list | tuple) else o
            for o in widget.choice_values or []
        ]
        picked = value if isinstance(value, tuple) else (value,)
        wrong = [v for v in picked if not isinstance(v, str) or v not in options]
        if wrong:
            raise InvalidOperation(where, f"must be among {', '.join(options)}")
        widget.field_value = picked[0] if picked else ""
        if len(picked) > 1:
            _select_many(widget, options, picked)
    else:
        raise InvalidOperation(
            where, f"a {widget.field_type_string} field cannot be filled"
        )
    return False


def _select_many(
    widget: pymupdf.Widget, options: list[str], picked: tuple[str, ...]
) -> None:
    """A multiple-choice list box: /V holds every chosen option, /I their
    indexes (PyMuPDF sets one value only)."""
    doc = widget.parent.parent
    escaped = " ".join(pymupdf.get_pdf_str(v) for v in picked)
    indexes = " ".join(str(options.index(v)) for v in sorted(picked, key=options.index))
    doc.xref_set_key(widget.xref, "V", f"[{escaped}]")
    doc.xref_set_key(widget.xref, "I", f"[{indexes}]")


def _plain_dingbats(doc: pymupdf.Document, xref: int) -> None:
    """MuPDF draws check marks with ZapfDingbats declared /WinAnsiEncoding,
    under which code "4" names the glyph "four", which the font lacks: poppler
    then draws an empty box. Without /Encoding, the font's own one applies."""
    kind, states = doc.xref_get_key(xref, "AP/N")
    if kind != "dict":
        return
    for state in re.findall(r"(\d+) 0 R", states):
        kind, fonts = doc.xref_get_key(int(state), "Resources/Font")
        for font in re.findall(r"(\d+) 0 R", fonts if kind == "dict" else ""):
            if doc.xref_get_key(int(font), "BaseFont")[1] == "/ZapfDingbats":
                doc.xref_set_key(int(font), "Encoding", "null")


def _is_radio(doc: pymupdf.Document, name: str) -> bool:
    return any(
        w.field_type == _RADIO
        for page in doc
        for w in page.widgets()
        if w.field_name == name
    )


def flatten(
    doc: pymupdf.Document, spec: FlattenSpec, state: RunState, path: str
) -> None:
    """Bake appearances into the content; what has none to bake goes too."""
    doc.bake(annots=spec.annotations, widgets=spec.forms)
    for page in doc:
        for annot in list(page.annots() if spec.annotations else ()):
            page.delete_annot(annot)
        for widget in list(page.widgets() if spec.forms else ()):
            page.delete_widget(widget)
