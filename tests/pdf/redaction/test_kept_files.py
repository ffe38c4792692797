"""Attachments kept on request, and real forms, through the whole redaction.

With `keep_attachments`, every attached file stays, opened and scrubbed: the
secret is gone from ZIP members, e-mail parts and embedded PDFs while their
other text stays; a file that cannot be scrubbed fails the build. The filled
Form 1040 of the shared corpus is redacted by zone (its name block, then its
whole top 200 pt) and verified in both modes.
"""

from __future__ import annotations

import io
import subprocess
import zipfile
from pathlib import Path

import pikepdf
import pytest

from engines.errors import EngineError
from engines.pdf.annotate import apply_annotations
from engines.pdf.types import Annotation, Box, Placement
from tests.pdf.redaction import judges
from tests.pdf.redaction.build_nested import attachments_of_every_kind
from tests.pdf.redaction.cases import Case, case, standard
from tests.pdf.redaction.pdfkit import Doc
from tests.pdf.redaction.test_hostile import placements


@pytest.fixture(scope="module")
def attached(tmp_path_factory: pytest.TempPathFactory) -> Case:
    return attachments_of_every_kind(tmp_path_factory.mktemp("kept") / "kept.pdf")


def _files(path: Path) -> dict[str, bytes]:
    with pikepdf.open(path) as pdf:
        names = list(pdf.Root.Names.EmbeddedFiles.Names)
        return {
            str(name): spec.EF.F.read_bytes()
            for name, spec in zip(names[::2], names[1::2], strict=True)
        }


@pytest.mark.parametrize("mode", ["burn", "live"])
def test_kept_attachments_are_opened_and_scrubbed(attached: Case, mode: str) -> None:
    out = attached.path.with_name(f"kept-{mode}.pdf")
    report = apply_annotations(
        str(attached.path),
        str(out),
        placements(attached, "zone"),
        mode=mode,  # type: ignore[arg-type]
        keep_attachments=True,
    )
    assert report.redaction_verified is True
    assert judges.findings(out, "Acme") == []
    files = _files(out)
    assert set(files) == {
        "list.csv",
        "bundle.zip",
        "inner.pdf",
        "mail.eml",
        "untyped.txt",
    }
    assert files["list.csv"].decode("utf-16") == "name;client\n1;\n"
    with zipfile.ZipFile(io.BytesIO(files["bundle.zip"])) as archive:
        assert archive.read("notes/memo.txt") == b"The client is .\n"
        assert archive.read("readme.txt") == b"nothing here\n"
    inner = out.with_name(f"inner-{mode}.pdf")
    inner.write_bytes(files["inner.pdf"])
    assert judges.pdftotext(inner).split() == ["Quote", "for", "attached"]
    assert b"please find the order" in files["mail.eml"]


def test_without_the_option_attachments_are_not_written(attached: Case) -> None:
    out = attached.path.with_name("dropped.pdf")
    apply_annotations(
        str(attached.path), str(out), placements(attached, "zone"), mode="live"
    )
    with pikepdf.open(out) as pdf:
        assert "/Names" not in pdf.Root or "/EmbeddedFiles" not in pdf.Root.Names
        assert not [o for o in pdf.objects if o.get("/Type") == "/EmbeddedFile"]


def test_a_kept_file_that_cannot_be_scrubbed_fails_the_build(tmp_path: Path) -> None:
    doc = Doc.new()
    standard(doc)
    stream = doc.stream(b"\x00\x01binary Acme\xff", Type=pikepdf.Name.EmbeddedFile)
    spec = doc.pdf.make_indirect(
        pikepdf.Dictionary(
            F=pikepdf.String("blob.bin"), EF=pikepdf.Dictionary(F=stream)
        )
    )
    doc.pdf.Root.Names = pikepdf.Dictionary(
        EmbeddedFiles=pikepdf.Dictionary(
            Names=pikepdf.Array([pikepdf.String("b"), spec])
        )
    )
    blob = case("blob", tmp_path / "blob.pdf", doc)
    out = tmp_path / "out.pdf"
    with pytest.raises(EngineError, match="cannot be scrubbed"):
        apply_annotations(
            str(blob.path), str(out), placements(blob, "zone"), mode="burn",
            keep_attachments=True,
        )  # fmt: skip
    assert not out.exists()


# --- a real form -------------------------------------------------------------------

F1040_ZONES = {"name block": Box(30, 60, 400, 60), "top 200 pt": Box(0, 0, 612, 200)}


@pytest.mark.corpus
@pytest.mark.parametrize("mode", ["burn", "live"])
@pytest.mark.parametrize("zone", sorted(F1040_ZONES))
def test_a_zone_over_the_filled_form_1040_redacts_and_verifies(
    corpus: Path, tmp_path: Path, zone: str, mode: str
) -> None:
    source = corpus / "prefilled_f1040.pdf"
    out = tmp_path / "f1040.pdf"
    area = F1040_ZONES[zone]
    placement = Placement(0, Annotation("RedactElemType", "doc", 0, position=area))
    report = apply_annotations(str(source), str(out), [placement], mode=mode)  # type: ignore[arg-type]
    assert report.redaction_verified is True
    inside = _text(out, area, inset=2)
    assert inside == [], inside
    below = Box(0, area.y + area.h + 2, 612, 792 - area.y - area.h - 2)
    before, after = _text(source, below), _text(out, below)
    assert len(before) > 300
    kept = sum(1 for word in before if word in set(after)) / len(before)
    assert kept >= 0.9


def _text(path: Path, box: Box, inset: float = 0) -> list[str]:
    """The words pdftotext reads in `box` (points, top-left origin)."""
    done = subprocess.run(
        [
            "pdftotext", "-f", "1", "-l", "1", "-x", str(int(box.x + inset)),
            "-y", str(int(box.y + inset)), "-W", str(int(box.w - 2 * inset)),
            "-H", str(int(box.h - 2 * inset)), str(path), "-",
        ],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout.split()


def test_an_attached_gzip_that_inflates_past_the_limit_is_refused_not_held() -> None:
    import gzip
    import zlib

    from engines.pdf.redact import attachments
    from engines.pdf.redact.words import Removed, words_pattern

    # 300 MiB of zeros in about 300 KB, written a MiB at a time.
    deflater = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = bytes(1024 * 1024)
    bomb = b"".join(deflater.compress(chunk) for _ in range(300)) + deflater.flush()
    assert len(bomb) < 1024 * 1024
    runs = [Removed("Zanzibar", True, True)]
    with pytest.raises(EngineError, match="inflates to more than 256 MiB"):
        attachments.scrub_file(bomb, words_pattern(runs), runs, 0, lambda d, r: d)
    small = gzip.compress(b"meet at Zanzibar at noon")
    clean = attachments.scrub_file(small, words_pattern(runs), runs, 0, lambda d, r: d)
    assert b"Zanzibar" not in gzip.decompress(clean)
