"""The hostile redaction corpus: every builder by name (see `cases`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.pdf.redaction.build_drawing import (
    invisible_ocr,
    named_properties,
    shared_form,
    soft_mask,
    tiling_pattern,
    type3_ink_elsewhere,
    type3_tall_box,
)
from tests.pdf.redaction.build_files import (
    cid_font,
    incremental_update,
    note_with_reply,
    optional_content,
    orphans_in_object_streams,
    rotated_and_skewed,
    scrambled_to_unicode,
    strings_everywhere,
)
from tests.pdf.redaction.build_forms import (
    choice_fields,
    glued,
    multi_page_field,
    page_data,
    unknown_annotations,
)
from tests.pdf.redaction.cases import SECRET, Case

__all__ = ["BUILDERS", "SECRET", "Case"]

BUILDERS: dict[str, Callable[[Path], Case]] = {
    builder.__name__: builder
    for builder in (
        glued,
        page_data,
        multi_page_field,
        choice_fields,
        unknown_annotations,
        tiling_pattern,
        soft_mask,
        type3_tall_box,
        type3_ink_elsewhere,
        named_properties,
        shared_form,
        invisible_ocr,
        optional_content,
        note_with_reply,
        scrambled_to_unicode,
        strings_everywhere,
        incremental_update,
        orphans_in_object_streams,
        rotated_and_skewed,
        cid_font,
    )
}
