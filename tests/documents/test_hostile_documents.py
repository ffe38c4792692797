"""Hostile documents, one class per test: every file is built here, by the test.

Each class gets a clear 415/400 at upload, or a FAILED order with a message a user
can act on, or, where the document is legitimately usable, a PROCESSED order; never
a 500, a hang (each step runs under a deadline) or memory blown by a few KB of input.

Policy for active content (JavaScript, embedded files): such documents are accepted
and stored byte for byte (the service never runs their scripts, and an original
must come back as sent), but what an order produces carries neither: no script
(document /OpenAction, /Names /JavaScript, /AA on pages or annotations, JavaScript
actions) and no embedded file (the /EmbeddedFiles tree, file attachment
annotations). An output is a new document a recipient trusts as "just the pages";
after a redaction an attachment could even hold the text that was redacted.
"""

from __future__ import annotations

import faulthandler
import hashlib
import io
import resource
import struct
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name, String

from orders.models import TransformationOrder
from tests.conftest import doc_url, make_pdf_bytes
from tests.orders.helpers import (
    element,
    file_path,
    order_body,
    pdftotext_pages,
    qpdf_check,
)

MiB = 1024 * 1024


# --- building hostile files ---------------------------------------------------------


def _base(pages: int = 2) -> bytes:
    return make_pdf_bytes(pages, prefix="hostile page")


def _rewrite(data: bytes, change: Callable[[pikepdf.Pdf], None], **save: Any) -> bytes:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        change(pdf)
        out = io.BytesIO()
        pdf.save(out, **save)
        return out.getvalue()


def malformed() -> bytes:
    """A PDF header, then 4 KB of noise: no objects, no xref, no trailer."""
    noise, block = bytearray(), b"hostile"
    while len(noise) < 4096:
        block = hashlib.sha256(block).digest()
        noise += block
    return b"%PDF-1.7\n" + bytes(noise) + b"\n%%EOF\n"


def truncated() -> bytes:
    """A three-page PDF cut in the middle (its last page object is lost)."""
    data = _base(3)
    return data[: len(data) // 2]


def encrypted(user: str) -> bytes:
    return _rewrite(
        _base(),
        lambda pdf: None,
        encryption=pikepdf.Encryption(user=user, owner="owner-secret", R=6),
    )


def _flate_of_fill(total: int, fill: bytes) -> bytes:
    """A zlib stream of `total` bytes of `fill`, built by repeating one flushed
    block instead of compressing gigabytes (instant; valid adler32)."""
    chunk = fill * MiB
    deflater = zlib.compressobj(9)
    first = deflater.compress(chunk) + deflater.flush(zlib.Z_FULL_FLUSH)
    block = deflater.compress(chunk) + deflater.flush(zlib.Z_FULL_FLUSH)
    end = deflater.flush(zlib.Z_FINISH)[:-4]
    checksum = 1
    for _ in range(total // MiB):
        checksum = zlib.adler32(chunk, checksum)
    return first + block * (total // MiB - 1) + end + struct.pack(">I", checksum)


# qpdf would otherwise decode and recompress the bomb while writing it.
AS_IS = {
    "compress_streams": False,
    "stream_decode_level": pikepdf.StreamDecodeLevel.none,
}


def _double_flate(inner: bytes) -> tuple[bytes, Array]:
    return zlib.compress(inner, 9), Array([Name.FlateDecode, Name.FlateDecode])


def bomb_in_content() -> bytes:
    """6 KB whose first page's content stream inflates to 2 GiB of spaces."""
    data, filters = _double_flate(_flate_of_fill(2048 * MiB, b" "))

    def change(pdf: pikepdf.Pdf) -> None:
        stream = pikepdf.Stream(pdf, b"")
        stream.write(data, filter=filters)
        page = pdf.pages[0].obj
        page.Contents = Array([page.Contents, pdf.make_indirect(stream)])

    return _rewrite(_base(), change, **AS_IS)


def bomb_in_many_streams() -> bytes:
    """Five content streams of 240 MiB each: every one under the limit of one
    stream, together over the limit of all."""
    data, filters = _double_flate(_flate_of_fill(240 * MiB, b" "))

    def change(pdf: pikepdf.Pdf) -> None:
        page = pdf.pages[0].obj
        streams = []
        for _ in range(5):
            stream = pikepdf.Stream(pdf, b"")
            stream.write(data, filter=filters)
            streams.append(pdf.make_indirect(stream))
        page.Contents = Array([page.Contents, *streams])

    return _rewrite(_base(), change, **AS_IS)


def bomb_in_image() -> bytes:
    """12 KB holding a 40,000 x 40,000 RGB image (4.8 GB of samples)."""
    side = 40_000
    data, filters = _double_flate(_flate_of_fill(side * side * 3, b"\xff"))

    def change(pdf: pikepdf.Pdf) -> None:
        image = pikepdf.Stream(pdf, b"")
        image.write(data, filter=filters)
        image.Type, image.Subtype = Name.XObject, Name.Image
        image.Width, image.Height, image.BitsPerComponent = side, side, 8
        image.ColorSpace = Name.DeviceRGB
        page = pdf.pages[0]
        page.add_resource(pdf.make_indirect(image), Name.XObject, Name("/Bomb"))
        page.contents_add(pikepdf.Stream(pdf, b"q 200 0 0 200 100 300 cm /Bomb Do Q"))

    return _rewrite(_base(), change, **AS_IS)


def with_javascript() -> bytes:
    def js(code: str) -> Dictionary:
        return Dictionary(S=Name.JavaScript, JS=String(code))

    def change(pdf: pikepdf.Pdf) -> None:
        pdf.Root.OpenAction = pdf.make_indirect(js("app.alert('open');"))
        tree = Dictionary(Names=Array([String("hello"), pdf.make_indirect(js("1;"))]))
        pdf.Root.Names = Dictionary(JavaScript=pdf.make_indirect(tree))
        for page in pdf.pages:
            page.obj.AA = Dictionary(O=js("app.alert('page');"))
            link = Dictionary(
                Type=Name.Annot,
                Subtype=Name.Link,
                Rect=Array([72, 72, 200, 100]),
                A=js("app.alert('link');"),
            )
            page.obj.Annots = Array([pdf.make_indirect(link)])

    return _rewrite(_base(), change)


def with_embedded_files() -> bytes:
    def change(pdf: pikepdf.Pdf) -> None:
        pdf.attachments["payload.txt"] = pikepdf.AttachedFileSpec(
            pdf, b"the unredacted original\n", filename="payload.txt"
        )
        spec = pikepdf.AttachedFileSpec(pdf, b"annotation payload\n", filename="a.txt")
        for page in pdf.pages:
            annot = Dictionary(
                Type=Name.Annot,
                Subtype=Name.FileAttachment,
                Rect=Array([72, 300, 90, 320]),
                FS=spec.obj,
                Contents=String("attached"),
            )
            page.obj.Annots = Array([pdf.make_indirect(annot)])

    return _rewrite(_base(), change)


def with_media_box(box: list[float]) -> bytes:
    def change(pdf: pikepdf.Pdf) -> None:
        pdf.pages[1].obj.MediaBox = Array(box)

    return _rewrite(_base(), change)


def raw_pdf(objects: list[bytes]) -> bytes:
    """Objects 1..n serialised by hand with a correct xref (object 1: catalog)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def one_page(page_extra: bytes = b"", content_extra: bytes = b"") -> bytes:
    content = b"BT /F1 14 Tf 72 700 Td (nested page 1) Tj ET " + content_extra
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >>" + page_extra + b" >>",
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
    )


DEPTH = 100_000


def nested_arrays_in_page() -> bytes:
    return one_page(page_extra=b" /Deep " + b"[" * DEPTH + b"]" * DEPTH)


def nested_dicts_in_page() -> bytes:
    return one_page(page_extra=b" /Deep " + b"<< /A " * DEPTH + b"0" + b" >>" * DEPTH)


def nested_arrays_in_content() -> bytes:
    return one_page(content_extra=b"[" * DEPTH + b"]" * DEPTH + b" pop")


def page_count_claim(claim: int) -> bytes:
    def change(pdf: pikepdf.Pdf) -> None:
        pdf.Root.Pages.Count = claim

    return _rewrite(_base(), change)


# --- running them -------------------------------------------------------------------


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail if the block takes longer than `seconds`; if it truly hangs (stuck in C,
    where no Python timeout reaches), dump every thread and end the run, rather
    than hold CI until its own limit."""
    faulthandler.dump_traceback_later(seconds * 4 + 30, exit=True, file=sys.stderr)
    started = time.monotonic()
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
    elapsed = time.monotonic() - started
    assert elapsed < seconds, f"took {elapsed:.1f} s (limit {seconds} s)"


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def assert_problem(response: Any, status: int, *words: str) -> str:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    detail = response.json()["detail"]
    for word in words:
        assert word in detail, detail
    return detail


def assert_processed(order: dict[str, Any], pages: int, *, check: bool = True) -> Path:
    assert order["currentState"] == "PROCESSED", order["errorMessage"]
    path = file_path(order["transformationResultDocumentID"]["id"])
    if check:
        qpdf_check(path)
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == pages
    return path


def assert_usable(
    upload: Callable[..., Any],
    run_order: Callable[..., dict[str, Any]],
    data: bytes,
    pages: int,
    *,
    check: bool = True,
) -> Path:
    """Uploaded, laid out with `pages` pages, and an order on it succeeds
    (`check`: the output passes `qpdf --check`)."""
    with deadline(30):
        response = upload(data)
        assert response.status_code == 200, response.content
        doc = response.json()["id"]
        order = run_order(order_body([element(doc)]))
    return assert_processed(order, pages, check=check)


def active_content(path: Path) -> set[str]:
    """The scripts and embedded files left anywhere in the PDF at `path`."""
    found: set[str] = set()
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if not isinstance(obj, Dictionary | pikepdf.Stream):
                continue
            keys = set(obj.keys())
            found |= keys & {"/JS", "/AA", "/OpenAction", "/EmbeddedFiles"}
            for key in ("/S", "/Type", "/Subtype"):
                value = obj.get(key)
                if value in (Name.JavaScript, Name.EmbeddedFile, Name.FileAttachment):
                    found.add(str(value))
    return found


# --- the classes --------------------------------------------------------------------


def test_malformed_pdf_is_refused_at_upload(upload: Callable[..., Any]) -> None:
    with deadline(10):
        assert_problem(upload(malformed()), 415, "not a readable PDF")


def test_malformed_pdf_kept_as_is_makes_an_order_on_it_a_clear_400(
    upload: Callable[..., Any], client: Any
) -> None:
    response = upload(malformed(), failOnUnsupported="false")
    assert response.status_code == 200, response.content
    doc = response.json()["id"]
    assert client.get(doc_url(doc)).json()["pageCount"] is None
    answer = client.post(
        "/transformations",
        data=order_body([element(doc)]),
        content_type="application/json",
    )
    assert_problem(answer, 400, "not a readable PDF")


def test_truncated_pdf_is_refused_as_damaged(upload: Callable[..., Any]) -> None:
    # MuPDF rebuilds three pages from what is left, qpdf two: orders would take
    # other pages than the layout shows.
    with deadline(10):
        assert_problem(upload(truncated()), 415, "damaged", "3 pages", "2 pages")


def test_pdf_with_a_user_password_is_refused(upload: Callable[..., Any]) -> None:
    with deadline(10):
        assert_problem(upload(encrypted(user="user-secret")), 415, "password")


def test_pdf_with_only_an_owner_password_is_usable(
    upload: Callable[..., Any], run_order: Callable[..., dict[str, Any]]
) -> None:
    path = assert_usable(upload, run_order, encrypted(user=""), pages=2)
    with pikepdf.open(path) as pdf:
        assert not pdf.is_encrypted  # outputs are never encrypted


@pytest.mark.parametrize(
    "build", [bomb_in_content, bomb_in_many_streams, bomb_in_image]
)
def test_decompression_bomb_is_refused_at_upload_in_time_and_memory(
    upload: Callable[..., Any], client: Any, build: Callable[[], bytes]
) -> None:
    data = build()
    assert len(data) < 20_000
    before = peak_rss_mib()
    with deadline(15):
        assert_problem(upload(data), 415, "decompression bomb")
        kept = upload(data, failOnUnsupported="false")
    assert peak_rss_mib() - before < 300
    # Kept as is on request: no layout, and no order can reach the engine with it.
    assert kept.status_code == 200, kept.content
    doc = kept.json()["id"]
    assert client.get(doc_url(doc)).json()["pageCount"] is None
    answer = client.post(
        "/transformations",
        data=order_body([element(doc)]),
        content_type="application/json",
    )
    assert_problem(answer, 400, "not a readable PDF")


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


@pytest.mark.parametrize(
    "box",
    [
        [0, 0, 1e9, 1e9],
        [0, 0, 14_401, 600],
        [0, 0, 600, 2],
        [0, 0, 600, 0.5],  # MuPDF would show it as 1 x 1 pt
        [0, 0, 1e-3, 1e-3],
    ],
    ids=["1e9", "over-14400", "two-points", "half-a-point", "a-thousandth"],
)
def test_absurd_page_size_is_refused_at_upload(
    upload: Callable[..., Any], box: list[float]
) -> None:
    with deadline(10):
        assert_problem(upload(with_media_box(box)), 415, "page 2", "3 and 14,400 pt")


@pytest.mark.parametrize(
    ("box", "size"),
    [
        ([0, 0, 14_400, 14_400], (14_400, 14_400)),
        ([0, 0, 3, 3], (3, 3)),
        ([0, 0, -612, -792], (612, 792)),  # readers normalise the rectangle
        ([0, 0, 0, 792], (612, 792)),  # degenerate: readers fall back to Letter
    ],
    ids=["largest", "smallest", "negative", "zero-width"],
)
def test_unusual_but_readable_page_box_is_usable(
    upload: Callable[..., Any],
    run_order: Callable[..., dict[str, Any]],
    client: Any,
    box: list[float],
    size: tuple[int, int],
) -> None:
    data = with_media_box(box)
    assert_usable(upload, run_order, data, pages=2)
    doc = upload(data).json()["id"]
    layout = client.get(doc_url(doc, "/layout")).json()["pageDimensionsList"]
    assert (layout[1]["width"], layout[1]["height"]) == size


@pytest.mark.parametrize("build", [nested_arrays_in_page, nested_dicts_in_page])
def test_objects_nested_100k_deep_in_the_page_are_refused_as_damaged(
    upload: Callable[..., Any], build: Callable[[], bytes]
) -> None:
    # MuPDF gives up on the page object (stack limit) and makes a blank Letter
    # page of it; qpdf finds no page at all.
    with deadline(10):
        assert_problem(upload(build()), 415, "damaged")


def test_arrays_nested_100k_deep_in_a_content_stream_leave_the_page_usable(
    upload: Callable[..., Any], run_order: Callable[..., dict[str, Any]]
) -> None:
    # The page is copied as it is: qpdf --check warns about its content stream.
    data = nested_arrays_in_content()
    path = assert_usable(upload, run_order, data, pages=1, check=False)
    assert pdftotext_pages(path) == ["nested page 1"]


@pytest.mark.parametrize(
    "suffix",
    [
        "/pages/0/text?searchText=nested",
        "/pages/0/text/position",
        "/pages/0/image?width=100",
        "/layout",
    ],
    ids=["search", "lines", "image", "layout"],
)
def test_reading_a_page_nested_too_deep_is_not_a_server_error(
    uploaded: Callable[..., str], client: Any, suffix: str
) -> None:
    doc = uploaded(nested_arrays_in_content())
    client.raise_request_exception = False  # see the answer a client would get
    with deadline(10):
        response = client.get(doc_url(doc) + suffix)
    assert response.status_code < 500, response.content


def test_the_difference_of_pages_nested_too_deep_is_answered(
    uploaded: Callable[..., str], client: Any
) -> None:
    doc = uploaded(nested_arrays_in_content())
    with deadline(10):
        response = client.get(f"/difference?leftDocumentId={doc}&rightDocumentId={doc}")
    assert response.status_code == 200, response.content
    assert response.json()["textChanges"] == []


def test_redacting_a_page_nested_too_deep_fails_with_a_clear_message(
    uploaded: Callable[..., str], run_order: Callable[..., dict[str, Any]]
) -> None:
    doc = uploaded(nested_arrays_in_content())
    redaction = {
        "type": "com.example.RedactElemType",
        "documentId": doc,
        "page": 0,
        "position": {"x": 60, "y": 100, "w": 200, "h": 40},
    }
    with deadline(30):
        order = run_order(order_body([element(doc)], annotations=[redaction]))
    assert order["currentState"] == "FAILED"
    assert "internal error" not in order["errorMessage"]


def test_a_page_count_claim_of_two_billion_is_ignored(
    upload: Callable[..., Any],
    run_order: Callable[..., dict[str, Any]],
    client: Any,
) -> None:
    data = page_count_claim(2_000_000_000)
    assert_usable(upload, run_order, data, pages=2)
    doc = upload(data).json()["id"]
    assert client.get(doc_url(doc)).json()["pageCount"] == 2


def test_more_pages_than_the_limit_is_refused(
    upload: Callable[..., Any], settings: Any
) -> None:
    settings.TRANSFORMSVC = {**settings.TRANSFORMSVC, "MAX_PAGES": 50}
    with deadline(10):
        response = upload(_base(51))
    assert response.status_code in (400, 415), response.content
    assert "limit is 50" in response.json()["detail"]


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "pages"),
    [("xref_command_missing.pdf", 1), ("poppler-90-0-fuzzed.pdf", 16)],
)
def test_damaged_corpus_pdfs_are_usable_in_orders(
    corpus: Path,
    upload: Callable[..., Any],
    run_order: Callable[..., dict[str, Any]],
    name: str,
    pages: int,
) -> None:
    data = (corpus / name).read_bytes()
    # Their damage is copied along: qpdf --check reports it in the outputs too.
    assert_usable(upload, run_order, data, pages=pages, check=False)
    doc = upload(data).json()["id"]
    redaction = {
        "type": "com.example.RedactElemType",
        "documentId": doc,
        "page": 0,
        "position": {"x": 0, "y": 0, "w": 100, "h": 20},
    }
    with deadline(60):
        order = run_order(order_body([element(doc, (1, 1))], annotations=[redaction]))
    assert_processed(order, pages=1, check=False)


def test_no_hostile_file_leaves_an_order_unfinished(
    upload: Callable[..., Any], run_order: Callable[..., dict[str, Any]]
) -> None:
    """Whatever passed upload ends PROCESSED or FAILED, in every output format."""
    usable = [with_javascript(), with_embedded_files(), nested_arrays_in_content()]
    for data in usable:
        doc = upload(data).json()["id"]
        for fmt in ("pdf", "pdf-fdf", "zip"):
            with deadline(30):
                order = run_order(order_body([element(doc)], fmt=fmt))
            assert order["currentState"] in ("PROCESSED", "FAILED"), order
    assert not TransformationOrder.objects.exclude(
        state__in=["PROCESSED", "FAILED"]
    ).exists()


@pytest.mark.cluster
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_survives_every_hostile_file_and_keeps_working(
    tmp_path: Path,
) -> None:
    """gunicorn + qcluster: hostile uploads and orders end, and the worker still
    processes the next ordinary order."""
    from tests.live import live_service

    octet = {"Content-Type": "application/octet-stream"}
    refused = [malformed(), truncated(), bomb_in_content(), nested_arrays_in_page()]
    usable = [with_javascript(), with_embedded_files(), nested_arrays_in_content()]
    with live_service(tmp_path / "live") as service:
        worker = service.processes["worker"]
        for data in refused:
            with deadline(15):
                assert (
                    service.post("/documents", data=data, headers=octet).status_code
                    == 415
                )
        for data in usable:
            doc = service.post("/documents", data=data, headers=octet).json()["id"]
            redaction = {
                "type": "com.example.RedactElemType",
                "documentId": doc,
                "page": 0,
                "position": {"x": 60, "y": 100, "w": 200, "h": 40},
            }
            for annotations in (None, [redaction]):
                body = order_body([element(doc)], annotations=annotations)
                order = service.post("/transformations", json=body).json()
                final = service.wait_until_final(
                    order["transformationOrderId"]["id"], 60
                )
                assert final["currentState"] in ("PROCESSED", "FAILED"), final
        assert worker.poll() is None, "the qcluster died"
        plain = service.post("/documents", data=_base(2), headers=octet).json()["id"]
        order = service.post(
            "/transformations", json=order_body([element(plain)])
        ).json()
        final = service.wait_until_final(order["transformationOrderId"]["id"], 60)
        assert final["currentState"] == "PROCESSED", final["errorMessage"]


def test_the_image_of_a_very_long_page_is_not_a_server_error(
    uploaded: Callable[..., str], client: Any
) -> None:
    doc = uploaded(with_media_box([0, 0, 3, 14_400]))
    client.raise_request_exception = False  # see the answer a client would get
    with deadline(20):
        response = client.get(doc_url(doc, "/pages/1/image", width=4000))
    assert response.status_code < 500, response.content


def test_comparing_the_largest_pages_ends_with_a_clear_outcome(
    uploaded: Callable[..., str], client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    doc = uploaded(with_media_box([0, 0, 14_400, 14_400]))
    with deadline(60), django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/comparisons",
            data={"leftDocumentId": doc, "rightDocumentId": doc},
            content_type="application/json",
        )
    assert answer.status_code == 200, answer.content
    order_id = answer.json()["comparisonOrderId"]["id"]
    order = client.get(f"/comparisons/{order_id}").json()
    assert order["currentState"] in ("PROCESSED", "FAILED"), order
    assert "internal error" not in (order["errorMessage"] or "")
