"""Fetching a document from a URL without letting the URL reach inside (SSRF).

Every address the host resolves to must be public unless the host is allowlisted;
the connection goes to the address that was checked (no second DNS answer), and
every redirect is checked again. "Public" is decided on the address itself, in
every spelling a URL can give it (decimal, octal or hex IPv4, IPv4 inside IPv6),
by an explicit list of refused networks, so it does not depend on the Python
version's idea of `is_global`. A whole fetch, redirects included, has a deadline:
a server that drips one byte per read timeout cannot hold a request for ever.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import urllib3

MAX_REDIRECTS = 5
CHUNK = 64 * 1024
# The whole fetch may take this many read timeouts (20 s by default: 5 minutes).
DEADLINE_TIMEOUTS = 15

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Never fetched unless the host is allowlisted: this host, private networks,
# link-local (cloud metadata at 169.254.169.254), carrier-grade NAT (Alibaba's
# metadata at 100.100.100.200), IETF special use (Oracle's metadata at
# 192.0.0.192), benchmarking, multicast, reserved, and Azure's platform address.
_REFUSED_V4 = tuple(
    ipaddress.IPv4Network(net)
    for net in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.88.99.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",
        "240.0.0.0/4",
        "168.63.129.16/32",
    )
)
# IPv6: unspecified, loopback and IPv4-compatible (::/96), discard, Teredo and
# other IETF assignments, documentation, unique local (fd00:ec2::254 is AWS's
# metadata), link-local, site-local, multicast.
_REFUSED_V6 = tuple(
    ipaddress.IPv6Network(net)
    for net in (
        "::/96",
        "100::/64",
        "2001::/23",
        "2001:db8::/32",
        "fc00::/7",
        "fe80::/10",
        "fec0::/10",
        "ff00::/8",
    )
)
# IPv6 networks that carry an IPv4 address a gateway would forward to (NAT64).
_NAT64 = (
    ipaddress.IPv6Network("64:ff9b::/96"),
    ipaddress.IPv6Network("64:ff9b:1::/48"),
)


class FetchRefused(Exception):
    """The URL is not allowed (scheme, address) or could not be fetched."""


class FetchTooLarge(FetchRefused):
    pass


class FetchUnreachable(FetchRefused):
    """The server could not be reached (connection refused, time-out, TLS)."""


class FetchStatus(FetchRefused):
    """The server answered, with a status other than 200 (redirects followed)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Fetched:
    """A fetch under way: the final answer's headers (names in lower case) and
    its body, read as `chunks` are consumed."""

    headers: dict[str, str]
    chunks: Iterator[bytes]


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    address: str
    path: str


def is_public(address: IPAddress) -> bool:
    """Whether `address` (and any IPv4 address it embeds) may be fetched."""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            return is_public(embedded)
        if any(address in net for net in _REFUSED_V6):
            return False
    elif any(address in net for net in _REFUSED_V4):
        return False
    return address.is_global and not address.is_multicast


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    # Mapped (::ffff:a.b.c.d) and NAT64 reach the IPv4 host; 6to4 (2002::/16)
    # and Teredo relay to it.
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if any(address in net for net in _NAT64):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def resolve(url: str, allowlist: frozenset[str], what: str = "documentUrl") -> Target:
    """Check scheme and host; return the one address to connect to. `what` names
    the URL in messages (documentUrl, callbackUrl)."""
    try:
        parts = urlsplit(url)
        port_given = parts.port
    except ValueError as exc:  # "Invalid IPv6 URL", "Port out of range"
        raise FetchRefused(f"{what} is not a valid URL ({exc})") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise FetchRefused(f"{what} must be http or https, not {scheme or 'empty'!r}")
    host = (parts.hostname or "").lower()
    if not host:
        raise FetchRefused(f"{what} has no host")
    port = port_given or (443 if scheme == "https" else 80)
    addresses = _addresses(host, port, what)
    if host not in allowlist:
        for address in addresses:
            if not is_public(address):
                raise FetchRefused(
                    f"{what} points to a non-public address ({address}); "
                    "such hosts must be listed in TRANSFORMSVC_URL_ALLOWLIST"
                )
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme, host, port, str(addresses[0]), path)


def _addresses(host: str, port: int, what: str) -> list[IPAddress]:
    """Every address `host` stands for: itself when it is an IP literal (an IPv6
    zone is dropped), else every answer of the resolver, which also reads the
    decimal, octal and hex IPv4 forms (2130706433, 0177.0.0.1, 0x7f.1)."""
    try:
        return [ipaddress.ip_address(host.split("%", 1)[0])]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    except (OSError, UnicodeError, ValueError) as exc:
        raise FetchRefused(f"the host {host!r} of {what} cannot be resolved") from exc


def fetch(
    url: str,
    *,
    allowlist: frozenset[str],
    timeout: float,
    max_bytes: int,
    deadline: float | None = None,
) -> Iterator[bytes]:
    """Yield the body of `url` in chunks, following checked redirects.

    `timeout` (seconds) bounds connecting and each read; `deadline` (seconds,
    default `DEADLINE_TIMEOUTS` timeouts) the whole fetch, body included.
    """
    return open_url(
        url,
        allowlist=allowlist,
        timeout=timeout,
        max_bytes=max_bytes,
        deadline=deadline,
    ).chunks


def open_url(
    url: str,
    *,
    allowlist: frozenset[str],
    timeout: float,
    max_bytes: int,
    deadline: float | None = None,
    what: str = "documentUrl",
) -> Fetched:
    """`fetch`, with the final answer's headers; `what` names the URL in
    messages. A non-200 answer raises FetchStatus (with its status), a server
    out of reach FetchUnreachable."""
    ends = time.monotonic() + (deadline or timeout * DEADLINE_TIMEOUTS)
    for _ in range(MAX_REDIRECTS + 1):
        target = resolve(url, allowlist, what)
        response = _request(target, timeout, what=what)
        location = response.headers.get("Location")
        if response.status in (301, 302, 303, 307, 308) and location:
            response.release_conn()
            try:
                url = urljoin(url, location)
            except ValueError as exc:
                raise FetchRefused(
                    f"{what} redirected to an invalid URL ({exc})"
                ) from exc
            continue
        if response.status != 200:
            response.release_conn()
            raise FetchStatus(
                f"{what} answered HTTP {response.status}", response.status
            )
        length = response.headers.get("Content-Length")
        if length and length.isdigit() and int(length) > max_bytes:
            response.release_conn()
            raise FetchTooLarge(f"{what} content is larger than {max_bytes} bytes")
        headers = {name.lower(): value for name, value in response.headers.items()}
        return Fetched(headers, _body(response, max_bytes, ends, what))
    raise FetchRefused(f"{what} redirected more than {MAX_REDIRECTS} times")


def _request(
    target: Target,
    timeout: float,
    *,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    what: str = "documentUrl",
) -> urllib3.BaseHTTPResponse:
    pool_class = (
        urllib3.HTTPSConnectionPool
        if target.scheme == "https"
        else urllib3.HTTPConnectionPool
    )
    kwargs: dict[str, Any] = {}
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
    try:
        return pool.urlopen(
            method,
            target.path,
            body=body,
            headers={
                **(headers or {}),
                "Host": _host_header(target),
                "User-Agent": "transformsvc",
            },
            redirect=False,
            preload_content=False,
        )
    except (urllib3.exceptions.HTTPError, OSError, ValueError) as exc:
        raise FetchUnreachable(
            f"{what} could not be reached: {type(exc).__name__}"
        ) from exc


@dataclass(frozen=True)
class Answer:
    """What a POST got back: the status and the first bytes of the body."""

    status: int
    head: bytes


def post(
    url: str,
    *,
    body: bytes,
    headers: dict[str, str],
    allowlist: frozenset[str],
    timeout: float,
    head_bytes: int = 1024,
    what: str = "callbackUrl",
) -> Answer:
    """POST `body` to `url` with the same checks as a fetch: the checked address
    only, and only 307/308 redirects followed (they keep the method and body),
    each checked again. Other answers, 3xx included, are returned as they are."""
    for _ in range(MAX_REDIRECTS + 1):
        target = resolve(url, allowlist, what)
        response = _request(
            target, timeout, method="POST", body=body, headers=headers, what=what
        )
        location = response.headers.get("Location")
        if response.status in (307, 308) and location:
            response.release_conn()
            try:
                url = urljoin(url, location)
            except ValueError as exc:
                raise FetchRefused(
                    f"{what} redirected to an invalid URL ({exc})"
                ) from exc
            continue
        try:
            head = response.read(head_bytes, decode_content=False) or b""
        except (urllib3.exceptions.HTTPError, OSError):
            head = b""
        finally:
            response.release_conn()
        return Answer(response.status, head)
    raise FetchRefused(f"{what} redirected more than {MAX_REDIRECTS} times")


def _host_header(target: Target) -> str:
    try:
        host = target.host.encode("idna").decode("ascii")
    except UnicodeError:
        host = target.host
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    return host if target.port in (80, 443) else f"{host}:{target.port}"


def _body(
    response: urllib3.BaseHTTPResponse,
    max_bytes: int,
    ends: float,
    what: str = "documentUrl",
) -> Iterator[bytes]:
    total = 0
    try:
        # read1: whatever has arrived, so that the deadline is checked between
        # reads, not after CHUNK bytes that a dripping server may never complete.
        while chunk := response.read1(CHUNK):
            total += len(chunk)
            if total > max_bytes:
                raise FetchTooLarge(f"{what} content is larger than {max_bytes} bytes")
            if time.monotonic() > ends:
                raise FetchRefused(
                    f"{what} took too long to send its content ({total} bytes received)"
                )
            yield chunk
    except (urllib3.exceptions.HTTPError, OSError) as exc:
        raise FetchUnreachable(f"{what} transfer failed: {type(exc).__name__}") from exc
    finally:
        response.release_conn()
