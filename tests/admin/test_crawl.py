"""Every link of the admin's pages answers 200 for a staff user, on a realistic
data set (thumbnails and downloads included)."""

from __future__ import annotations

import re
import time
from collections import deque
from html import unescape
from typing import Any
from urllib.parse import urljoin, urlsplit

from tests.admin.dataset import Dataset

LINK = re.compile(r'(?:href|src)="([^"]+)"')
SKIP = ("/admin/logout/", "/admin/password_change/")


def links_of(page_url: str, html: str) -> list[str]:
    found = []
    for raw in LINK.findall(html):
        url = urljoin(page_url, unescape(raw))
        parts = urlsplit(url)
        if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
            continue
        if url.startswith("data:") or not parts.path.startswith("/admin/"):
            continue
        if any(parts.path.startswith(s) for s in SKIP):
            continue
        found.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return found


def expands(url: str) -> bool:
    """Pages whose links are followed: every page without a query string (lists,
    object pages, the dashboard). Filtered and paged variants of a list are
    fetched but not expanded: their links are the same kinds of links again."""
    return "?" not in url


def crawl(client: Any, start: str, budget: int) -> dict[str, int]:
    """GET every admin link reachable from `start` (see `expands`)."""
    seen: dict[str, int] = {}
    queue = deque([start])
    while queue and len(seen) < budget:
        url = queue.popleft()
        if url in seen:
            continue
        response = client.get(url)
        seen[url] = response.status_code
        kind = response.get("Content-Type", "")
        if response.streaming:
            b"".join(response.streaming_content)  # read to the end: closes the file
            continue
        if response.status_code != 200 or "text/html" not in kind or not expands(url):
            continue
        for link in links_of(url, response.content.decode()):
            if link not in seen:
                queue.append(link)
    return seen


def test_every_link_of_the_admin_answers_200(staff: Any, realistic: Dataset) -> None:
    started = time.monotonic()
    seen = crawl(staff, "/admin/", budget=5000)
    broken = {url: status for url, status in seen.items() if status != 200}
    assert broken == {}
    pages = [u for u in seen if "/page/" in u]
    downloads = [u for u in seen if u.endswith("/download/")]
    assert len(pages) > 40 and len(downloads) > 20, (len(pages), len(downloads))
    assert any(u.startswith("/admin/dashboard/") for u in seen)
    assert len(seen) < 5000, "the crawl stopped at its budget"
    print(f"crawled {len(seen)} admin URLs in {time.monotonic() - started:.1f} s")
