"""A recognition that fails for good leaves the text final and says why; one
that meets a passing fault is tried again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError

from conversions.models import ConversionOrder
from documents.models import Document
from engines.errors import EngineError
from engines.ocr import ocr_pdf


def test_a_recognition_that_fails_for_good_says_why_on_the_document(
    converted: Callable[..., str],
    make_pdf: Callable[..., bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def stops(*args: Any, **kwargs: Any) -> Any:
        raise EngineError("Tesseract stopped on page 1")

    monkeypatch.setattr("conversions.build.ocr_pdf", stops)
    doc_id = converted(make_pdf(1), ocr="always")
    doc = Document.objects.get(pk=doc_id)
    assert doc.text_state == Document.Text.READY
    assert doc.text_error == (
        "the scanned pages could not be recognised: Tesseract stopped on page 1"
    )
    order = ConversionOrder.objects.get(document_id=doc_id)
    assert order.state == "FAILED"


def test_a_passing_database_fault_during_recognition_is_tried_again(
    converted: Callable[..., str],
    make_pdf: Callable[..., bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("jobs.lifecycle.BUILD_PAUSES", (0.01, 0.01, 0.01))
    calls: list[int] = []

    def flaky(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return ocr_pdf(*args, **kwargs)

    monkeypatch.setattr("conversions.build.ocr_pdf", flaky)
    doc_id = converted(make_pdf(1), ocr="always")
    doc = Document.objects.get(pk=doc_id)
    assert len(calls) == 2
    assert doc.text_state == Document.Text.READY and doc.text_error is None
    assert ConversionOrder.objects.get(document_id=doc_id).state == "PROCESSED"
