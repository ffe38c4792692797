"""Documents (`/documents`): upload (streamed), metadata, layout, search, page
text, download (streamed), delete.

Page indexes count from 0, as on the wire."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from transformsvc_client.core import QueryValue, Transport
from transformsvc_client.shapes import DocumentInfo, Layout, SearchHit, id_of

OCR_MODES = ("auto", "always", "never")


def _doc(document_id: str, *suffix: str) -> str:
    return "/documents" + Transport.path(document_id) + "".join("/" + s for s in suffix)


class Documents:
    def __init__(self, transport: Transport) -> None:
        self.transport = transport

    def upload(
        self,
        source: str | os.PathLike[str] | IO[bytes],
        *,
        title: str | None = None,
        ocr: str | None = None,
        document_id: str | None = None,
        fail_on_unsupported: bool | None = None,
        length: int | None = None,
    ) -> str:
        """Upload a file (a path, or an open binary stream) and answer its id.

        The bytes are streamed, never held whole. A stream is sent from where
        it stands; without `length` it is measured (a pipe is first spooled to a
        temporary file). `ocr` is auto, always or never; the service detects the
        format from the bytes."""
        query: dict[str, QueryValue] = {
            "documentId": document_id,
            "documentTitle": title,
            "ocr": ocr,
            "failOnUnsupported": fail_on_unsupported,
        }
        if isinstance(source, str | os.PathLike):
            path = Path(source)
            with path.open("rb") as stream:
                answer = self.transport.upload(
                    "/documents", stream, length=path.stat().st_size, query=query
                )
        else:
            answer = self.transport.upload(
                "/documents", source, length=length, query=query
            )
        return _created_id(answer)

    def upload_url(self, url: str, *, title: str | None = None) -> str:
        """Have the service fetch a document from `url`; its id."""
        answer = self.transport.json(
            "POST", "/documents", query={"documentUrl": url, "documentTitle": title}
        )
        return _created_id(answer)

    def every(
        self,
        *,
        show: str = "uploaded",
        formats: Sequence[str] = (),
        words: str | None = None,
        page_size: int = 100,
    ) -> Iterator[DocumentInfo]:
        """The caller's documents, newest first, page after page: what people
        uploaded (`show`: part, rendition, result, layout or all for more), of
        `formats` (short names: pdf, docx, eml...), whose title holds `words`."""
        page = 1
        while True:
            data = self.transport.json(
                "GET",
                "/documents",
                query={
                    "show": show,
                    "format": ",".join(formats) or None,
                    "q": words,
                    "page": page,
                    "pageSize": page_size,
                },
            )
            yield from (DocumentInfo.from_json(item) for item in data)
            if len(data) < page_size:
                return
            page += 1

    def info(self, document_id: str) -> DocumentInfo:
        """The document's metadata (answered at once, even while it converts)."""
        return DocumentInfo.from_json(self.transport.json("GET", _doc(document_id)))

    def layout(self, document_id: str) -> Layout:
        """Its pages as displayed (the service waits for a conversion under way)."""
        return Layout.from_json(self.transport.json("GET", _doc(document_id, "layout")))

    def search(
        self,
        document_id: str,
        text: str,
        *,
        regex: bool = False,
        case_sensitive: bool = False,
        accent_sensitive: bool = False,
        first_page: int = 0,
        last_page: int = -1,
    ) -> list[SearchHit]:
        """Every match from `first_page` to `last_page` (from 0, inclusive; -1 the
        last page), in page order. A search the service stops early (its time or
        result budget, `searchStatus` PARTIAL) is continued from the page after
        the last one it searched, until the whole range is done."""
        hits: list[SearchHit] = []
        start = first_page
        while True:
            data = self.transport.json(
                "GET",
                _doc(document_id, "search"),
                query={
                    "searchText": text,
                    "regex": regex,
                    "caseSensitive": case_sensitive,
                    "accentSensitive": accent_sensitive,
                    "fromPage": start,
                    "toPage": last_page,
                },
            )
            pages: Mapping[str, Any] = data.get("pagesResults") or {}
            for page in sorted(pages, key=int):
                hits.extend(SearchHit.from_json(item) for item in pages[page])
            searched = int(data.get("lastPageSearched", -1))
            if data.get("searchStatus") != "PARTIAL" or searched < start:
                return hits
            if last_page >= 0 and searched >= last_page:
                return hits
            start = searched + 1

    def page_text(self, document_id: str, page: int) -> dict[str, Any]:
        """Every line of page `page` (from 0) with its geometry (`PageContents`)."""
        data = self.transport.json(
            "GET", _doc(document_id, "pages", str(page), "text", "position")
        )
        return dict(data)

    def download(
        self,
        document_id: str,
        dest: str | os.PathLike[str],
        *,
        format: str | None = None,
    ) -> int:
        """Stream the document's file into `dest`; bytes written. No `format`: as
        uploaded; `pdf`: its PDF (the rendition of a non-PDF); a format a
        conversion made (`docx`, `png`...), `zip` for a multi-output result."""
        return self.transport.download(
            _doc(document_id, "file"), Path(dest), query={"format": format}
        )

    def page_image(
        self,
        document_id: str,
        page: int,
        dest: str | os.PathLike[str],
        *,
        width: int = 1000,
    ) -> int:
        """Page `page` (from 0) drawn `width` pixels wide (PNG, or JPEG for a
        page that is one JPEG scan) into `dest`; bytes written."""
        return self.transport.download(
            _doc(document_id, "pages", str(page), "image"),
            Path(dest),
            query={"width": width},
        )

    def delete(self, document_id: str) -> None:
        """Delete the document, its files, and its parts if it is a container."""
        self.transport.json("DELETE", _doc(document_id))


def _created_id(answer: Any) -> str:
    document_id = id_of(answer.get("id")) if isinstance(answer, dict) else None
    if not document_id:
        raise ValueError(f"the service answered no document id: {answer!r}")
    return document_id
