"""Encrypt an output (AES-256), and open password-protected inputs.

Passwords are never logged nor put in an error message, and specs keep them
out of their repr. The encryption is applied by qpdf when the output is
written, as the very last step.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field

import msoffcrypto
import pikepdf

from engines.errors import PasswordRequired, UnsupportedDocument
from engines.pdf.ops.fields import Fields
from engines.pdf.ops.state import RunState

# Wire name → pikepdf.Permissions flag. Absent `permissions`: everything allowed.
PERMISSIONS = {
    "print": "print_lowres",
    "printHighQuality": "print_highres",
    "modify": "modify_other",
    "copy": "extract",
    "annotate": "modify_annotation",
    "fillForms": "modify_form",
    "accessibility": "accessibility",
    "assemble": "modify_assembly",
}
MAX_PASSWORD = 127  # bytes of UTF-8 that AES-256 (revision 6) takes
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass(frozen=True, slots=True)
class EncryptSpec:
    """`user_password` opens the file ("" = it opens without one, with the
    permissions enforced); `owner_password` lifts the restrictions (a random
    one nobody knows when not given); `permissions`: what a reader with the
    user password may do (None = everything)."""

    user_password: str = field(default="", repr=False)
    owner_password: str | None = field(default=None, repr=False)
    permissions: frozenset[str] | None = None


def parse(f: Fields) -> EncryptSpec:
    user = f.text("userPassword", "") or ""
    owner = f.text("ownerPassword")
    for name, value in (("userPassword", user), ("ownerPassword", owner or "")):
        if len(value.encode()) > MAX_PASSWORD:
            raise f.fail(name, f"must be at most {MAX_PASSWORD} bytes in UTF-8")
    if not user and not owner:
        raise f.fail("userPassword", "give userPassword, ownerPassword or both")
    raw = f.raw("permissions")
    permissions = None
    if raw is not None:
        if not isinstance(raw, list) or any(p not in PERMISSIONS for p in raw):
            raise f.fail("permissions", f"must be a list of {', '.join(PERMISSIONS)}")
        permissions = frozenset(raw)
    return EncryptSpec(user, owner, permissions)


def apply(pdf: pikepdf.Pdf, spec: EncryptSpec, state: RunState, path: str) -> None:
    """Only records how the file is to be written: qpdf encrypts while saving."""
    allowed = list(PERMISSIONS.values())
    if spec.permissions is not None:
        allowed = [PERMISSIONS[p] for p in spec.permissions]
        if "print_highres" in allowed:
            allowed.append("print_lowres")
    flags = {flag: flag in allowed for flag in PERMISSIONS.values()}
    state.save.encryption = pikepdf.Encryption(
        owner=spec.owner_password or secrets.token_urlsafe(24),
        user=spec.user_password,
        R=6,
        aes=True,
        metadata=True,
        allow=pikepdf.Permissions(**flags),
    )


def unlock(src: str, dest: str, password: str) -> bool:
    """Write at `dest` a decrypted copy of the protected PDF or Office file
    `src`; False (nothing written) when `src` needs no password.

    Raises PasswordRequired when the password does not open it (the message
    does not hold it), UnsupportedDocument when it is neither.
    """
    with open(src, "rb") as file:
        head = file.read(1024)
    if b"%PDF-" in head:
        return _unlock_pdf(src, dest, password)
    if head.startswith(_OLE):
        return _unlock_office(src, dest, password)
    raise UnsupportedDocument("only PDF and Office files can be opened with a password")


def _unlock_pdf(src: str, dest: str, password: str) -> bool:
    try:
        with pikepdf.open(src):
            return False  # not encrypted, or with an empty user password
    except pikepdf.PasswordError:
        pass  # needs a password: opened again with it below
    except pikepdf.PdfError as exc:
        raise UnsupportedDocument(
            f"the PDF cannot be read ({type(exc).__name__})"
        ) from None
    try:
        with pikepdf.open(src, password=password) as pdf:
            pdf.save(dest)  # written without encryption
    except pikepdf.PasswordError:
        raise PasswordRequired("the password does not open this PDF") from None
    except pikepdf.PdfError as exc:
        raise UnsupportedDocument(
            f"the PDF cannot be read ({type(exc).__name__})"
        ) from None
    return True


def _unlock_office(src: str, dest: str, password: str) -> bool:
    try:
        with open(src, "rb") as file:
            office = msoffcrypto.OfficeFile(file)
            if not office.is_encrypted():
                return False
            office.load_key(password=password, verify_password=True)
            with open(dest, "wb") as out:
                office.decrypt(out)
    except (
        msoffcrypto.exceptions.InvalidKeyError,
        msoffcrypto.exceptions.DecryptionError,
    ):
        if os.path.exists(dest):
            os.unlink(dest)
        raise PasswordRequired("the password does not open this file") from None
    except msoffcrypto.exceptions.FileFormatError as exc:
        raise UnsupportedDocument(f"the Office file cannot be read ({exc})") from None
    return True
