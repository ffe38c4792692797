"""What a document's rendition kept and could not, for its admin page: fonts
that stood in for others, the encoding chosen, parts skipped, how sure the
recognition of its scans was, page by page."""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from documents.models import Document


def fidelity_html(doc: Document) -> SafeString:
    """An empty string when nothing was converted or recognised."""
    parts = [*_conversion(doc.fidelity or {}), *_recognition(doc.ocr_report or {})]
    if not parts:
        return mark_safe("—")
    return format_html_join(mark_safe(""), "<p>{}</p>", ((p,) for p in parts))


def _conversion(report: dict[str, Any]) -> list[SafeString]:
    found = []
    encoding = report.get("encoding")
    if encoding:
        found.append(
            format_html(
                "Text read as <b>{}</b> ({}, confidence {:.0%}{})",
                encoding.get("name"),
                encoding.get("source"),
                float(encoding.get("confidence") or 0),
                f", {encoding['language']}" if encoding.get("language") else "",
            )
        )
    substitutions = report.get("substitutions") or []
    if substitutions:
        found.append(
            format_html(
                "Fonts substituted: {}",
                format_html_join(
                    ", ",
                    "{} → {}{}",
                    (
                        (
                            s.get("asked"),
                            s.get("used"),
                            "" if s.get("metric_compatible") else " (widths differ)",
                        )
                        for s in substitutions
                    ),
                ),
            )
        )
    elif report.get("fonts_asked"):
        found.append(
            format_html("Fonts: {} (all present)", ", ".join(report["fonts_asked"]))
        )
    for part in report.get("skipped") or []:
        names = ", ".join(part.get("names") or [])
        found.append(
            format_html(
                "Not shown: {} × {}{}",
                part.get("count"),
                part.get("kind", "").replace("_", " "),
                f" ({names})" if names else "",
            )
        )
    found.extend(format_html("{}", note) for note in report.get("notes") or [])
    return found


def _recognition(report: dict[str, Any]) -> list[SafeString]:
    pages = [p for p in report.get("pages") or [] if p.get("confidence") is not None]
    if not pages:
        return (
            [format_html("Scans recognised: no words found")]
            if report.get("pages_ocred")
            else []
        )
    mean = sum(p["confidence"] for p in pages) / len(pages)
    low = sorted(pages, key=lambda p: p["confidence"])[:3]
    return [
        format_html(
            "Scans recognised: {} pages, mean word confidence {:.0f}/100; lowest: {}",
            len(report.get("pages_ocred") or []),
            mean,
            ", ".join(f"page {p['page'] + 1} ({p['confidence']:.0f})" for p in low),
        )
    ]
