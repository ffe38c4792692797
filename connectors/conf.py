"""The configured REST providers (the original's `connector.registries`).

`TRANSFORMSVC_CONNECTORS` lists them, `;`-separated, each as
`<id>=<base URL>[|<param>,<param>...]`: the id a client names in `X-Provider-ID`,
the provider's base URL (its `GET /documents` is called), and the request
parameters it takes (the original's `whitelistedParams`: only these are
forwarded, and they alone name the document). Without a list every parameter is
forwarded. `TRANSFORMSVC_CONNECTOR_DEFAULT` names the provider used when a
request names none.

    TRANSFORMSVC_CONNECTORS="files=http://10.0.0.5:8787|path;filenet=http://filenet-connector:8787|objectStoreName,id"
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from transformsvc.conf import service


@dataclass(frozen=True, slots=True)
class Provider:
    id: str
    base_url: str  # without a trailing slash
    params: tuple[str, ...]  # forwarded parameters; () forwards every one

    @property
    def host(self) -> str:
        return (urlsplit(self.base_url).hostname or "").lower()


def parse(raw: str) -> dict[str, Provider]:
    """`TRANSFORMSVC_CONNECTORS` → {id: Provider}; ImproperlyConfigured names a
    bad entry."""
    found: dict[str, Provider] = {}
    for entry in (item.strip() for item in raw.split(";")):
        if not entry:
            continue
        name, _, rest = entry.partition("=")
        url, _, params = rest.partition("|")
        name, url = name.strip(), url.strip().rstrip("/")
        parts = urlsplit(url)
        if not name or parts.scheme not in ("http", "https") or not parts.hostname:
            raise ImproperlyConfigured(
                f"TRANSFORMSVC_CONNECTORS: {entry!r} is not <id>=<http(s) URL>[|params]"
            )
        found[name] = Provider(
            id=name,
            base_url=url,
            params=tuple(p.strip() for p in params.split(",") if p.strip()),
        )
    return found


def providers() -> dict[str, Provider]:
    return parse(service().connectors)


def default_provider() -> str:
    return service().connector_default
