"""The second hostile corpus: every builder by name (see `cases`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.pdf.redaction.build_nested import (
    associated_files,
    attachments_of_every_kind,
    cid_appearance,
    redact_overlay,
    signature_layers,
    stamp_nested_form,
)
from tests.pdf.redaction.build_paint import (
    hyphenated,
    jpeg_metadata,
    lying_map_in_form,
    mesh_shading,
    pattern_image,
    soft_mask_image,
    tracked_heading,
    vertical_text,
)
from tests.pdf.redaction.build_streams import (
    cdata_xmp,
    character_references,
    comment_in_content,
    layer_and_label_names,
    pdfdoc_strings,
    percent_encoded_uri,
    resource_and_font_names,
    rich_text_stream,
    script_in_chained_action,
    script_on_field_parent,
    spot_colour_name,
    untyped_xmp,
    utf16_xmp,
    utf16le_string,
    widget_appearance_winansi,
)
from tests.pdf.redaction.cases import Case

BUILDERS: dict[str, Callable[[Path], Case]] = {
    builder.__name__: builder
    for builder in (
        script_in_chained_action,
        script_on_field_parent,
        rich_text_stream,
        untyped_xmp,
        utf16_xmp,
        cdata_xmp,
        pdfdoc_strings,
        utf16le_string,
        spot_colour_name,
        resource_and_font_names,
        comment_in_content,
        layer_and_label_names,
        percent_encoded_uri,
        character_references,
        widget_appearance_winansi,
        stamp_nested_form,
        signature_layers,
        cid_appearance,
        redact_overlay,
        attachments_of_every_kind,
        associated_files,
        soft_mask_image,
        mesh_shading,
        pattern_image,
        jpeg_metadata,
        lying_map_in_form,
        hyphenated,
        tracked_heading,
        vertical_text,
    )
}
