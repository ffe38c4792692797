"""Active content (JavaScript, embedded files) is kept in originals, never in outputs.

Such documents are accepted and stored byte for byte (the service never runs their
scripts, and an original must come back as sent), but what an order produces
carries neither: no script (document /OpenAction, /Names /JavaScript, /AA on pages
or annotations, JavaScript actions) and no embedded file (the /EmbeddedFiles tree,
file attachment annotations). An output is a new document a recipient trusts as
"just the pages"; after a redaction an attachment could even hold the text that was
redacted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pikepdf

from tests.conftest import doc_url
from tests.documents.hostile.build import with_embedded_files, with_javascript
from tests.documents.hostile.helpers import active_content, assert_usable


def test_pdf_with_javascript_is_stored_byte_for_byte(
    uploaded: Callable[..., str], client: Any
) -> None:
    data = with_javascript()
    doc = uploaded(data)
    assert b"".join(client.get(doc_url(doc, "/file")).streaming_content) == data


def test_order_outputs_carry_no_javascript(
    upload: Callable[..., Any], run_order: Callable[..., dict[str, Any]]
) -> None:
    path = assert_usable(upload, run_order, with_javascript(), pages=2)
    assert active_content(path) == set()


def test_order_outputs_carry_no_embedded_file(
    upload: Callable[..., Any], run_order: Callable[..., dict[str, Any]]
) -> None:
    path = assert_usable(upload, run_order, with_embedded_files(), pages=2)
    assert active_content(path) == set()


def test_document_level_scripts_and_attachments_stay_out_of_outputs(
    upload: Callable[..., Any], run_order: Callable[..., dict[str, Any]]
) -> None:
    for data in (with_javascript(), with_embedded_files()):
        path = assert_usable(upload, run_order, data, pages=2)
        with pikepdf.open(path) as pdf:
            assert "/OpenAction" not in pdf.Root
            assert "/Names" not in pdf.Root
            assert not pdf.attachments
