"""GET /signatures on a file with a signature whose CMS data cannot be parsed
(the original's client uploads such a file, signature.pdf, and reads the
name, date, signer, location and reason of each signature)."""

from __future__ import annotations

import io
import os
import re
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import signers

from tests.conftest import doc_url, make_pdf_bytes
from tests.documents.signing import self_signed


def _signed(pdf: bytes, signer: signers.SimpleSigner, field: str, name: str) -> bytes:
    meta = signers.PdfSignatureMetadata(
        field_name=field, name=name, reason="Approval", location="Paris"
    )
    writer = IncrementalPdfFileWriter(io.BytesIO(pdf))
    return signers.sign_pdf(writer, meta, signer=signer).getvalue()


def _break_cms(pdf: bytes) -> bytes:
    """The first signature's CMS blob made unparsable as in the client's file:
    its outer tag turned from universal SEQUENCE (30) to an application tag (40),
    the length of the file unchanged."""
    start = pdf.index(b"/Contents <") + len(b"/Contents <")
    assert pdf[start : start + 2] == b"30"
    return pdf[:start] + b"40" + pdf[start + 2 :]


def test_a_signature_that_cannot_be_parsed_is_listed_beside_the_good_one(
    client: Any, uploaded: Callable[..., str], tmp_path: Path
) -> None:
    signer = self_signed(tmp_path)
    first = _break_cms(
        _signed(make_pdf_bytes(["Contract"]), signer, "Sig1", "Bremford")
    )
    both = _signed(first, signer, "Signature2", "John Doe")
    response = client.get(doc_url(uploaded(both), "/signatures"))
    assert response.status_code == 200
    body = response.json()
    broken, good = body["signatures"]
    assert (broken["name"], broken["signer"]) == ("Sig1", "Bremford")
    assert (broken["reason"], broken["location"]) == ("Approval", "Paris")
    assert broken["signatureException"] is True and broken["wrongIntegrity"] is True
    assert "ContentInfo" in broken["error"]
    assert good["name"] == "Signature2" and "John Doe" in good["signer"]
    assert good["error"] is None and good["signatureValid"] is True
    assert body["wronglySigned"] is True and body["integrity"] is False
    # Independently: poppler's pdfsig lists the same two fields, signed at the
    # times the dictionaries say (to the second).
    path = tmp_path / "signed.pdf"
    path.write_bytes(both)
    listing = subprocess.run(
        ["pdfsig", str(path)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TZ": "UTC"},
    ).stdout
    assert re.findall(r"Signature Field Name: (\S+)", listing) == [
        "Sig1",
        "Signature2",
    ]
    for ours in (broken, good):
        when = datetime.fromisoformat(ours["date"]).astimezone(UTC)
        assert f"Signing Time: {when:%b %d %Y %H:%M:%S}" in listing
