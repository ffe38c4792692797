"""Digital signatures of a PDF, checked with pyHanko (no hand-written crypto).

For each signature field that holds a signature: who signed (the certificate's
subject), when (the signing time the signer reports), why and where, and three
verdicts — the signature's cryptography verifies, the signed bytes are intact and
nothing but allowed changes came after it, and the certificate is trusted. No
trust roots are configured and nothing is fetched from the network: a
certificate is "unknown" unless it chains to a root given to `signatures()`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from asn1crypto import x509
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.diff_analysis import ModificationLevel
from pyhanko.sign.fields import enumerate_sig_fields
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.pdf_embedded import EmbeddedPdfSignature
from pyhanko.sign.validation.status import PdfSignatureStatus, SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext

from engines.errors import EngineError

logger = logging.getLogger(__name__)

# Changes after a signature that leave it standing: none, or validation data
# (DSS, timestamps) added for long-term validation.
_HARMLESS = (ModificationLevel.NONE, ModificationLevel.LTA_UPDATES)


@dataclass(frozen=True, slots=True)
class Signature:
    field_name: str
    signer: str | None  # the certificate's subject, e.g. "Common Name: John Doe"
    signed_at: datetime | None
    reason: str | None
    location: str | None
    name: str | None  # /Name: the signer's name as the signing software wrote it
    valid: bool  # the signature's cryptography verifies against its certificate
    intact: bool  # the signed bytes are unchanged (digest matches)
    modified_after: bool  # changes other than validation data were added later
    trusted: bool  # the certificate chains to a configured trust root
    covers_whole_file: bool
    error: str | None = None  # the signature could not be checked at all

    @property
    def integrity_ok(self) -> bool:
        return self.valid and self.intact and not self.modified_after


def signatures(
    path: str, trust_roots: Sequence[x509.Certificate] = ()
) -> list[Signature]:
    """The signature fields of the PDF at `path` that hold a signature, in field
    order; [] when unsigned. A signature that cannot be checked (its CMS data
    does not parse, its byte range is broken...) is listed with what its
    dictionary says (/Name as signer, /M, /Reason, /Location) and its `error`;
    it never hides the others. Raises EngineError only when the file itself
    cannot be read."""
    try:
        with open(path, "rb") as fh:
            reader = PdfFileReader(fh, strict=False)
            if reader.encrypted:
                reader.decrypt(b"")
            return [
                _field(reader, name, field, trust_roots)
                for name, _, field in enumerate_sig_fields(reader, filled_status=True)
            ]
    except (PdfError, OSError, ValueError, KeyError) as exc:
        raise EngineError(f"the signatures cannot be read: {exc}") from exc


def _field(
    reader: PdfFileReader,
    name: str,
    field: generic.IndirectObject,
    roots: Sequence[x509.Certificate],
) -> Signature:
    field_dict = field.get_object()
    try:
        sig = EmbeddedPdfSignature(reader, field_dict, name)
    except Exception as exc:  # the CMS blob, the byte range: anything malformed
        logger.info("signature %r cannot be read: %s", name, exc)
        return _unreadable(name, field_dict, exc)
    return _check(sig, roots)


def _unreadable(
    name: str, field: generic.DictionaryObject, exc: Exception
) -> Signature:
    """What the signature dictionary of `field` says, with why it was not checked."""
    try:
        value = field.get("/V")
        obj = value.get_object() if value is not None else generic.DictionaryObject()
    except Exception:
        obj = generic.DictionaryObject()
    return Signature(
        field_name=name,
        signer=_text(obj.get("/Name")),
        signed_at=_dictionary_time(obj),
        reason=_text(obj.get("/Reason")),
        location=_text(obj.get("/Location")),
        name=_text(obj.get("/Name")),
        valid=False,
        intact=False,
        modified_after=False,
        trusted=False,
        covers_whole_file=False,
        error=_message(exc),
    )


def _check(sig: EmbeddedPdfSignature, roots: Sequence[x509.Certificate]) -> Signature:
    obj = sig.sig_object
    field_name = sig.field_name or ""
    reason, location = _text(obj.get("/Reason")), _text(obj.get("/Location"))
    name = _text(obj.get("/Name"))
    context = ValidationContext(
        trust_roots=list(roots), allow_fetching=False, revocation_mode="soft-fail"
    )
    try:
        status = validate_pdf_signature(sig, signer_validation_context=context)
    except Exception as exc:  # pyHanko raises many kinds on malformed signatures
        logger.info("signature %r cannot be checked: %s", sig.field_name, exc)
        return Signature(
            field_name=field_name,
            reason=reason,
            location=location,
            name=name,
            signer=name,
            signed_at=_reported_time(sig),
            valid=False,
            intact=False,
            modified_after=False,
            trusted=False,
            covers_whole_file=False,
            error=_message(exc),
        )
    return Signature(
        field_name=field_name,
        reason=reason,
        location=location,
        name=name,
        signer=_subject(status),
        signed_at=status.signer_reported_dt or _reported_time(sig),
        valid=bool(status.valid),
        intact=bool(status.intact),
        modified_after=status.modification_level not in _HARMLESS
        or status.docmdp_ok is False,
        trusted=bool(status.trusted),
        covers_whole_file=status.coverage == SignatureCoverageLevel.ENTIRE_FILE,
    )


def _message(exc: Exception) -> str:
    return str(exc)[:200] or type(exc).__name__


def _dictionary_time(obj: generic.DictionaryObject) -> datetime | None:
    """The signing time the dictionary's /M says; None when absent or unreadable."""
    raw = obj.get("/M")
    if raw is None:
        return None
    try:
        return generic.parse_pdf_date(str(raw), strict=False)
    except Exception:
        return None


def _subject(status: PdfSignatureStatus) -> str | None:
    cert = status.signing_cert
    return None if cert is None else str(cert.subject.human_friendly)


def _reported_time(sig: EmbeddedPdfSignature) -> datetime | None:
    try:
        return sig.self_reported_timestamp
    except Exception:  # an unparsable /M date
        return None


def _text(value: object) -> str | None:
    return None if value is None else str(value)
