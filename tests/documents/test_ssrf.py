"""documentUrl cannot reach inside: every spelling of a non-public address is refused.

Three tables. `resolve` is checked on its own for every form (it only parses and
resolves, it never connects, so rows naming metadata or private addresses send no
traffic anywhere). Then the whole upload is run against a real HTTP server on this
machine, reached through loopback in every spelling: it must be refused and the
server must see no request. Last, redirects from an allowlisted first hop.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from engines import fetch
from tests.conftest import make_pdf_bytes
from tests.documents.conftest import post_url

PDF = make_pdf_bytes(1, prefix="fetched")


class Handler(BaseHTTPRequestHandler):
    hits: list[str]

    def do_GET(self) -> None:  # noqa: N802
        self.hits.append(self.path)
        path = urlsplit(self.path)
        if path.path == "/doc.pdf":
            self._send(200, PDF)
        elif path.path == "/redirect":
            self._send(302, b"", Location=parse_qs(path.query)["to"][0])
        elif path.path == "/loop":
            self._send(302, b"", Location="/loop")
        elif path.path == "/drip":
            self.send_response(200)
            self.send_header("Content-Length", "1000000")
            self.end_headers()
            every = float(parse_qs(path.query).get("every", ["0.2"])[0])
            for _ in range(200):  # far past any deadline below
                self.wfile.write(b"%")
                self.wfile.flush()
                time.sleep(every)
        else:
            self._send(404, b"")

    def _send(self, status: int, body: bytes, **headers: str) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


class Server:
    def __init__(self, family: socket.AddressFamily, host: str) -> None:
        handler = type("BoundHandler", (Handler,), {"hits": []})
        server_class = type(
            "Server", (ThreadingHTTPServer,), {"address_family": family}
        )
        self.httpd = server_class((host, 0), handler)
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        self.hits: list[str] = handler.hits  # type: ignore[attr-defined]
        threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Server]:
    served = Server(socket.AF_INET, "127.0.0.1")
    yield served
    served.close()


@pytest.fixture
def server6() -> Iterator[Server]:
    try:
        served = Server(socket.AF_INET6, "::1")
    except OSError as exc:
        pytest.skip(f"no IPv6 loopback here: {exc}")
    yield served
    served.close()


def refused(response: Any, reason: str) -> None:
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert reason in response.json()["detail"], response.json()


def in_etc_hosts(name: str) -> bool:
    """Whether `name` resolves offline (from /etc/hosts, without asking DNS)."""
    try:
        lines = Path("/etc/hosts").read_text().splitlines()
    except OSError:
        return False
    return any(name in line.split("#")[0].split()[1:] for line in lines)


# --- resolve: every form, no connection ---------------------------------------------

NON_PUBLIC = "non-public address"
NOT_HTTP = "must be http or https"

REFUSED = [
    # IPv4 loopback, private, link-local, metadata, special
    ("loopback", "http://127.0.0.1/x.pdf", NON_PUBLIC),
    ("loopback-other", "https://127.8.9.10:8443/x.pdf", NON_PUBLIC),
    ("this-host", "http://0.0.0.0/", NON_PUBLIC),
    ("private-10", "http://10.0.0.1/", NON_PUBLIC),
    ("private-172", "http://172.16.5.4/", NON_PUBLIC),
    ("private-192", "http://192.168.1.1/", NON_PUBLIC),
    ("cgnat", "http://100.64.0.1/", NON_PUBLIC),
    ("link-local", "http://169.254.1.1/", NON_PUBLIC),
    ("aws-gcp-metadata", "http://169.254.169.254/latest/meta-data/", NON_PUBLIC),
    ("alibaba-metadata", "http://100.100.100.200/latest/meta-data", NON_PUBLIC),
    ("oracle-metadata", "http://192.0.0.192/opc/v1/instance/", NON_PUBLIC),
    ("azure-wireserver", "http://168.63.129.16/machine", NON_PUBLIC),
    ("multicast", "http://224.0.0.1/", NON_PUBLIC),
    ("broadcast", "http://255.255.255.255/", NON_PUBLIC),
    ("reserved", "http://240.0.0.1/", NON_PUBLIC),
    ("benchmarking", "http://198.18.0.1/", NON_PUBLIC),
    # IPv4 spelled as the resolver reads it
    ("decimal", "http://2130706433/", NON_PUBLIC),
    ("octal", "http://0177.0.0.1/", NON_PUBLIC),
    ("octal-whole", "http://017700000001/", NON_PUBLIC),
    ("hex", "http://0x7f.1/", NON_PUBLIC),
    ("hex-whole", "http://0x7f000001/", NON_PUBLIC),
    ("short", "http://127.1/", NON_PUBLIC),
    ("zero", "http://0/", NON_PUBLIC),
    ("decimal-metadata", "http://2852039166/", NON_PUBLIC),  # 169.254.169.254
    # IPv6
    ("v6-loopback", "http://[::1]/", NON_PUBLIC),
    ("v6-unspecified", "http://[::]/", NON_PUBLIC),
    ("v6-link-local", "http://[fe80::1]/", NON_PUBLIC),
    ("v6-link-local-zone", "http://[fe80::1%25lo]/", NON_PUBLIC),
    ("v6-unique-local", "http://[fc00::1]/", NON_PUBLIC),
    ("aws-v6-metadata", "http://[fd00:ec2::254]/latest/meta-data/", NON_PUBLIC),
    ("v6-site-local", "http://[fec0::1]/", NON_PUBLIC),
    ("v6-multicast", "http://[ff02::1]/", NON_PUBLIC),
    ("v6-global-multicast", "http://[ff0e::1]/", NON_PUBLIC),
    # IPv4 inside IPv6
    ("mapped", "http://[::ffff:127.0.0.1]/", NON_PUBLIC),
    ("mapped-hex", "http://[::ffff:7f00:1]/", NON_PUBLIC),
    ("mapped-metadata", "http://[::ffff:169.254.169.254]/", NON_PUBLIC),
    ("v4-compatible", "http://[::127.0.0.1]/", NON_PUBLIC),
    ("nat64", "http://[64:ff9b::7f00:1]/", NON_PUBLIC),
    ("nat64-metadata", "http://[64:ff9b::a9fe:a9fe]/", NON_PUBLIC),
    ("6to4", "http://[2002:7f00:1::]/", NON_PUBLIC),
    ("teredo", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", NON_PUBLIC),
    # names resolved offline
    ("localhost", "http://localhost/", NON_PUBLIC),
    ("localhost-upper", "http://LocalHost:8080/", NON_PUBLIC),
    ("localhost-idna", "http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", NON_PUBLIC),
    ("nip-io", "http://127.0.0.1.nip.io/", NON_PUBLIC),
    # userinfo tricks: the host is what follows the last @
    ("userinfo", "http://evil@127.0.0.1/", NON_PUBLIC),
    ("userinfo-host-like", "http://example.com@127.0.0.1/", NON_PUBLIC),
    ("userinfo-password", "http://user:pass@[::1]:8080/", NON_PUBLIC),
    ("userinfo-backslash", "http://example.com\\@127.0.0.1/", NON_PUBLIC),
    # schemes
    ("file", "file:///etc/passwd", NOT_HTTP),
    ("ftp", "ftp://127.0.0.1/x.pdf", NOT_HTTP),
    ("gopher", "gopher://127.0.0.1:6379/_INFO", NOT_HTTP),
    ("dict", "dict://127.0.0.1:11211/stat", NOT_HTTP),
    ("javascript", "javascript:alert(1)", NOT_HTTP),
    ("data", "data:application/pdf;base64,JVBERi0xLjcK", NOT_HTTP),
    ("scheme-relative", "//127.0.0.1/x.pdf", NOT_HTTP),
    ("no-scheme", "127.0.0.1/x.pdf", NOT_HTTP),
    # not URLs at all
    ("no-host", "http:///x.pdf", "has no host"),
    ("bad-ipv6", "http://[::1/x.pdf", "not a valid URL"),
    ("bad-port", "http://example.com:99999/", "not a valid URL"),
]

NEEDS_ETC_HOSTS = {"nip-io": "127.0.0.1.nip.io"}


@pytest.mark.parametrize(
    ("url", "reason"), [row[1:] for row in REFUSED], ids=[row[0] for row in REFUSED]
)
def test_resolve_refuses_every_form_of_a_non_public_target(
    request: pytest.FixtureRequest, url: str, reason: str
) -> None:
    name = NEEDS_ETC_HOSTS.get(request.node.callspec.id)
    if name and not in_etc_hosts(name):
        pytest.skip(f"{name} resolves only through public DNS, absent offline")
    with pytest.raises(fetch.FetchRefused, match=reason):
        fetch.resolve(url, frozenset())


@pytest.mark.parametrize(
    ("url", "allowlist", "address"),
    [
        ("http://93.184.216.34/a.pdf", (), "93.184.216.34"),
        ("https://[2606:4700:4700::1111]/a.pdf", (), "2606:4700:4700::1111"),
        ("http://localhost:8080/a.pdf", ("localhost",), "127.0.0.1"),
        ("http://LOCALHOST/a.pdf", ("localhost",), "127.0.0.1"),
        ("http://127.0.0.1/a.pdf", ("127.0.0.1",), "127.0.0.1"),
        ("http://[::1]/a.pdf", ("::1",), "::1"),
    ],
    ids=[
        "public-v4",
        "public-v6",
        "allowlisted-name",
        "name-any-case",
        "allowed-ip",
        "allowed-v6",
    ],
)
def test_resolve_lets_public_and_allowlisted_hosts_through(
    url: str, allowlist: tuple[str, ...], address: str
) -> None:
    target = fetch.resolve(url, frozenset(allowlist))
    assert target.address == address


@pytest.mark.parametrize(
    ("url", "allowlist"),
    [
        ("http://2130706433/", ("127.0.0.1",)),
        ("http://127.0.0.1/", ("localhost",)),
        ("http://[::ffff:127.0.0.1]/", ("127.0.0.1",)),
    ],
    ids=["decimal-of-allowed-ip", "ip-of-allowed-name", "mapped-of-allowed-ip"],
)
def test_the_allowlist_names_hosts_as_written_not_addresses(
    url: str, allowlist: tuple[str, ...]
) -> None:
    with pytest.raises(fetch.FetchRefused, match=NON_PUBLIC):
        fetch.resolve(url, frozenset(allowlist))


# --- the whole upload, against a server on loopback ---------------------------------

LOOPBACK_SPELLINGS = [
    "127.0.0.1",
    "2130706433",
    "0177.0.0.1",
    "0x7f.1",
    "127.1",
    "localhost",
    "[::ffff:127.0.0.1]",
    "evil@127.0.0.1",
    "user:secret@localhost",
]


@pytest.mark.parametrize("host", LOOPBACK_SPELLINGS)
def test_upload_from_loopback_in_any_spelling_is_refused_and_never_fetched(
    client: Any, server: Server, allow: Callable[..., None], host: str
) -> None:
    refused(post_url(client, f"http://{host}:{server.port}/doc.pdf"), NON_PUBLIC)
    assert server.hits == []


def test_upload_from_ipv6_loopback_is_refused_and_never_fetched(
    client: Any, server6: Server, allow: Callable[..., None]
) -> None:
    refused(post_url(client, f"http://[::1]:{server6.port}/doc.pdf"), NON_PUBLIC)
    assert server6.hits == []


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "http://[::1/x.pdf"],
    ids=["file", "gopher", "bad-ipv6"],
)
def test_upload_from_a_refused_url_is_a_400_problem(
    client: Any, allow: Callable[..., None], url: str
) -> None:
    response = post_url(client, url)
    assert response.status_code == 400, response.content
    assert response.json()["errors"]["documentUrl"]


def test_an_allowlisted_name_is_fetched(
    client: Any, server: Server, allow: Callable[..., None]
) -> None:
    allow("localhost")
    response = post_url(client, f"http://LocalHost:{server.port}/doc.pdf")
    assert response.status_code == 200, response.content
    assert server.hits == ["/doc.pdf"]


def test_an_allowlisted_ipv6_literal_is_fetched_with_a_valid_host_header(
    client: Any, server6: Server, allow: Callable[..., None]
) -> None:
    allow("::1")
    response = post_url(client, f"http://[::1]:{server6.port}/doc.pdf")
    assert response.status_code == 200, response.content
    assert server6.hits == ["/doc.pdf"]


# --- redirects: the first hop is allowlisted, each next one is checked again --------

REDIRECT_TARGETS = [
    ("other-name-same-address", "http://localhost:{port}/doc.pdf", NON_PUBLIC),
    ("decimal", "http://2130706433:{port}/doc.pdf", NON_PUBLIC),
    ("mapped", "http://[::ffff:127.0.0.1]:{port}/doc.pdf", NON_PUBLIC),
    ("ipv6-loopback", "http://[::1]:{port}/doc.pdf", NON_PUBLIC),
    ("metadata", "http://169.254.169.254/latest/meta-data/", NON_PUBLIC),
    ("metadata-v6", "http://[fd00:ec2::254]/latest/meta-data/", NON_PUBLIC),
    ("private", "http://10.1.2.3/doc.pdf", NON_PUBLIC),
    ("file", "file:///etc/passwd", NOT_HTTP),
    ("gopher", "gopher://127.0.0.1:{port}/_x", NOT_HTTP),
    ("invalid", "http://[::1/doc.pdf", "invalid URL"),
]


@pytest.mark.parametrize(
    ("target", "reason"),
    [row[1:] for row in REDIRECT_TARGETS],
    ids=[row[0] for row in REDIRECT_TARGETS],
)
def test_a_redirect_to_a_refused_target_is_refused(
    client: Any, server: Server, allow: Callable[..., None], target: str, reason: str
) -> None:
    allow("127.0.0.1")
    to = target.format(port=server.port)
    first = f"http://127.0.0.1:{server.port}/redirect?" + urlencode({"to": to})
    refused(post_url(client, first), reason)
    assert len(server.hits) == 1  # the allowlisted first hop only


def test_a_redirect_within_the_allowlisted_host_is_followed(
    client: Any, server: Server, allow: Callable[..., None]
) -> None:
    allow("127.0.0.1")
    first = f"http://127.0.0.1:{server.port}/redirect?to=/doc.pdf"
    response = post_url(client, first)
    assert response.status_code == 200, response.content
    assert [urlsplit(hit).path for hit in server.hits] == ["/redirect", "/doc.pdf"]


def test_a_redirect_loop_stops_after_five_redirects(
    client: Any, server: Server, allow: Callable[..., None]
) -> None:
    allow("127.0.0.1")
    refused(post_url(client, f"http://127.0.0.1:{server.port}/loop"), "more than 5")
    assert len(server.hits) == fetch.MAX_REDIRECTS + 1


# --- a server that never finishes ---------------------------------------------------


def test_a_dripping_server_is_cut_off_at_the_deadline(server: Server) -> None:
    started = time.monotonic()
    chunks = fetch.fetch(
        f"http://127.0.0.1:{server.port}/drip",
        allowlist=frozenset({"127.0.0.1"}),
        timeout=1.0,
        max_bytes=10_000_000,
        deadline=1.5,
    )
    with pytest.raises(fetch.FetchRefused, match="took too long"):
        for _ in chunks:
            pass
    assert time.monotonic() - started < 5


def test_a_dripping_server_makes_the_upload_a_400_in_bounded_time(
    client: Any, server: Server, allow: Callable[..., None]
) -> None:
    allow("127.0.0.1", URL_TIMEOUT=0.1, URL_DEADLINE=1.5)
    started = time.monotonic()
    url = f"http://127.0.0.1:{server.port}/drip?every=0.02"
    refused(post_url(client, url), "too long")
    assert time.monotonic() - started < 5
