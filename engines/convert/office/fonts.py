"""The fonts LibreOffice draws Office documents with, and what stands in for
the ones this machine does not have.

A document laid out in Calibri breaks its lines, and fills its fixed-height
rows and frames, by Calibri's advance widths: drawn in a font of other
widths (Noto Sans, fontconfig's default), lines break elsewhere and the last
lines of a wrapped cell fall outside its row. Metric-compatible stand-ins
keep the author's line breaks; Debian ships them for the Office defaults:

| asked | stand-in (Debian package) | same widths |
|---|---|---|
| Calibri, Calibri Light | Carlito (fonts-crosextra-carlito) | yes |
| Cambria | Caladea (fonts-crosextra-caladea) | yes |
| Arial, Times New Roman, Courier New | Liberation (fonts-liberation) | yes |
| Tahoma | Wine's Tahoma (fonts-wine) | yes |
| Verdana | DejaVu Sans (fonts-dejavu) | no: the nearest widths |
| Georgia, Segoe UI, Aptos | Noto Serif / Noto Sans (fonts-noto-core) | no: none exists |

Each pool instance runs with a fontconfig file of its own
(`FONTCONFIG_FILE`): the system's configuration, plus Wine's Tahoma (which
Debian installs outside the fonts path; linked alone, not Wine's other
fonts, whose Courier and Symbol would take over those names) and the
aliases above.
"""

from __future__ import annotations

import functools
import os
import subprocess
import tempfile
from collections.abc import Iterable
from xml.sax.saxutils import escape

from engines.convert.fidelity import FontSubstitution

# Fonts linked into an instance's private font folder, when installed.
EXTRA_FONTS = (
    "/usr/share/wine/fonts/tahoma.ttf",
    "/usr/share/wine/fonts/tahomabd.ttf",
)
# asked family -> stand-in family, for fontconfig (LibreOffice asks it for a
# font it does not have).
ALIASES = {
    "Calibri": "Carlito",
    "Calibri Light": "Carlito",
    "Cambria": "Caladea",
    "Verdana": "DejaVu Sans",
}
# Families with the same advance widths, by `family_key`.
METRIC_COMPATIBLE = {
    "calibri": {"carlito"},
    "calibrilight": {"carlito"},
    "cambria": {"caladea"},
    "arial": {"liberationsans", "arimo"},
    "helvetica": {"liberationsans", "arimo", "nimbussans"},
    "timesnewroman": {"liberationserif", "tinos"},
    "times": {"liberationserif", "tinos", "nimbusroman"},
    "couriernew": {"liberationmono", "cousine"},
    "courier": {"liberationmono", "cousine", "nimbusmonops"},
    "arialnarrow": {"liberationsansnarrow"},
    "tahoma": {"tahoma"},
}
_CONF = "fonts.conf"


def fontconfig_file(home: str) -> str:
    """Write the fontconfig file of an instance whose home is `home`, with
    its private font folder beside it; its path."""
    folder = os.path.join(home, "fonts")
    os.makedirs(folder, exist_ok=True)
    for path in EXTRA_FONTS:
        link = os.path.join(folder, os.path.basename(path))
        if os.path.isfile(path) and not os.path.lexists(link):
            os.symlink(path, link)
    conf = os.path.join(home, _CONF)
    with open(conf, "w") as fh:
        fh.write(fontconfig_xml(folder, os.path.join(home, "fontcache")))
    return conf


def fontconfig_xml(folder: str, cache: str) -> str:
    aliases = "".join(
        f'<alias binding="same"><family>{escape(asked)}</family>'
        f"<prefer><family>{escape(used)}</family></prefer></alias>\n"
        for asked, used in ALIASES.items()
    )
    return (
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
        "<fontconfig>\n"
        '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n'
        f"<dir>{escape(folder)}</dir>\n<cachedir>{escape(cache)}</cachedir>\n"
        f"{aliases}</fontconfig>\n"
    )


def family_key(name: str) -> str:
    """A family name as compared across the package and the PDF: "Times New
    Roman", "TimesNewRomanPSMT" and "Times New Roman Bold" are "timesnewroman"."""
    key = "".join(ch for ch in name.lower() if ch.isalnum())
    for suffix in ("psmt", "mt", "bold", "italic", "regular", "oblique"):
        if key.endswith(suffix) and len(key) > len(suffix) + 2:
            key = key[: -len(suffix)]
    return key


def metric_compatible(asked: str, used: str) -> bool:
    return family_key(used) in METRIC_COMPATIBLE.get(family_key(asked), set())


@functools.cache
def stand_in(asked: str, conf: str | None = None) -> str | None:
    """The family fontconfig gives for `asked` under the fontconfig file
    `conf` (the pool's), or None when fc-match is missing."""
    env = {**os.environ}
    if conf:
        env["FONTCONFIG_FILE"] = conf
    try:
        done = subprocess.run(
            ["fc-match", "--format=%{family[0]}", asked],
            capture_output=True,
            text=True,
            timeout=10,
            env=env,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None


@functools.cache
def report_fontconfig() -> str:
    """A fontconfig file like the instances' (same fonts, same aliases), for
    asking which family stands in for a font; one per process."""
    home = tempfile.mkdtemp(prefix="office-fonts-")
    return fontconfig_file(home)


def substitutions(
    asked: Iterable[str], used: Iterable[str]
) -> tuple[FontSubstitution, ...]:
    """The asked fonts a PDF does not embed, each with the family standing in
    for it, when that family is among the `used` ones (an asked font whose
    stand-in is not in the PDF drew nothing)."""
    used_keys = {family_key(name): name for name in used}
    found = []
    for name in asked:
        if family_key(name) in used_keys:
            continue
        stand = stand_in(name, report_fontconfig())
        if stand is None or family_key(stand) not in used_keys:
            continue
        found.append(FontSubstitution(name, stand, metric_compatible(name, stand)))
    return tuple(found)
