"""Fetching a document from a URL without letting the URL reach inside (SSRF).

Every address the host resolves to must be public unless the host is allowlisted;
the connection goes to the address that was checked (no second DNS answer), and
every redirect is checked again.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import urllib3

MAX_REDIRECTS = 5
CHUNK = 64 * 1024


class FetchRefused(Exception):
    """The URL is not allowed (scheme, address) or could not be fetched."""


class FetchTooLarge(FetchRefused):
    pass


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    address: str
    path: str


def _is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return _is_public(address.ipv4_mapped)
    return address.is_global and not address.is_multicast


def resolve(url: str, allowlist: frozenset[str]) -> Target:
    """Check scheme and host; return the one address to connect to."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise FetchRefused(
            f"documentUrl must be http or https, not {scheme or 'empty'!r}"
        )
    host = (parts.hostname or "").lower()
    if not host:
        raise FetchRefused("documentUrl has no host")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as exc:
        raise FetchRefused("documentUrl has an invalid port") from exc
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchRefused(
            f"the host {host!r} of documentUrl cannot be resolved"
        ) from exc
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    if host not in allowlist:
        for address in addresses:
            if not _is_public(address):
                raise FetchRefused(
                    f"documentUrl points to a non-public address ({address}); "
                    "such hosts must be listed in TRANSFORMSVC_URL_ALLOWLIST"
                )
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme, host, port, str(addresses[0]), path)


def fetch(
    url: str, *, allowlist: frozenset[str], timeout: float, max_bytes: int
) -> Iterator[bytes]:
    """Yield the body of `url` in chunks, following checked redirects."""
    for _ in range(MAX_REDIRECTS + 1):
        target = resolve(url, allowlist)
        response = _request(target, timeout)
        if response.status in (301, 302, 303, 307, 308) and response.headers.get(
            "Location"
        ):
            response.release_conn()
            url = urljoin(url, response.headers["Location"])
            continue
        if response.status != 200:
            response.release_conn()
            raise FetchRefused(f"documentUrl answered HTTP {response.status}")
        length = response.headers.get("Content-Length")
        if length and length.isdigit() and int(length) > max_bytes:
            response.release_conn()
            raise FetchTooLarge(f"documentUrl content is larger than {max_bytes} bytes")
        return _body(response, max_bytes)
    raise FetchRefused(f"documentUrl redirected more than {MAX_REDIRECTS} times")


def _request(target: Target, timeout: float) -> urllib3.BaseHTTPResponse:
    pool_class = (
        urllib3.HTTPSConnectionPool
        if target.scheme == "https"
        else urllib3.HTTPConnectionPool
    )
    kwargs: dict[str, object] = {}
    if target.scheme == "https":
        # Connect to the checked address, but verify the certificate for the host name.
        kwargs = {
            "server_hostname": target.host,
            "assert_hostname": target.host,
            "cert_reqs": "CERT_REQUIRED",
        }
    pool = pool_class(
        target.address,
        port=target.port,
        maxsize=1,
        retries=False,
        timeout=urllib3.Timeout(connect=timeout, read=timeout),
        **kwargs,
    )
    host_header = (
        target.host if target.port in (80, 443) else f"{target.host}:{target.port}"
    )
    try:
        return pool.urlopen(
            "GET",
            target.path,
            headers={"Host": host_header, "User-Agent": "transformsvc"},
            redirect=False,
            preload_content=False,
        )
    except urllib3.exceptions.HTTPError as exc:
        raise FetchRefused(
            f"documentUrl could not be fetched: {type(exc).__name__}"
        ) from exc


def _body(response: urllib3.BaseHTTPResponse, max_bytes: int) -> Iterator[bytes]:
    total = 0
    try:
        for chunk in response.stream(CHUNK):
            total += len(chunk)
            if total > max_bytes:
                raise FetchTooLarge(
                    f"documentUrl content is larger than {max_bytes} bytes"
                )
            yield chunk
    except urllib3.exceptions.HTTPError as exc:
        raise FetchRefused(
            f"documentUrl transfer failed: {type(exc).__name__}"
        ) from exc
    finally:
        response.release_conn()
