"""Signing in tests: a self-signed certificate made on the spot, pyHanko to sign."""

from __future__ import annotations

import datetime
import io
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import signers


def self_signed(folder: Path, common_name: str = "John Doe") -> signers.SimpleSigner:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Test Org"),
        ]
    )
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .sign(key, hashes.SHA256())
    )
    key_file, cert_file = folder / "key.pem", folder / "cert.pem"
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    signer = signers.SimpleSigner.load(str(key_file), str(cert_file))
    assert signer is not None
    return signer


def sign(
    pdf: bytes,
    signer: signers.SimpleSigner,
    *,
    field: str = "Signature1",
    reason: str = "Approval",
    location: str = "Paris",
) -> bytes:
    out = signers.sign_pdf(
        IncrementalPdfFileWriter(io.BytesIO(pdf)),
        signers.PdfSignatureMetadata(
            field_name=field, reason=reason, location=location
        ),
        signer=signer,
    )
    return out.getvalue()


def flip_signed_byte(signed: bytes) -> bytes:
    """A copy with one byte changed inside the signed range (the header's
    binary comment): still a readable PDF, no longer the bytes that were signed."""
    data = bytearray(signed)
    data[11] ^= 0x01
    return bytes(data)


def replace_page_content(signed: bytes, content: bytes) -> bytes:
    """A copy with an incremental update after the signature that swaps the first
    page's content: the signed revision is intact, the document is not."""
    writer = IncrementalPdfFileWriter(io.BytesIO(signed))
    page = writer.root["/Pages"]["/Kids"][0].get_object()
    page["/Contents"] = writer.add_object(generic.StreamObject(stream_data=content))
    writer.update_container(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
