"""HTML made safe to render: nothing executable, nothing remote.

The renderer (MuPDF's Story) runs no scripts and has no network code, so
this is defence in depth, and it also keeps a hostile page's markup within
what the renderer handles well: scripts, frames, plugins, forms' controls,
`<link>`/`<base>`/`<meta>` are removed; event handlers and `javascript:`
links dropped; images keep only `data:` URIs and the e-mail's own inline
parts (`cid:`), the rest becomes their alt text; CSS loses `@import` and
every `url(...)`. lxml's parser bounds nesting (256 levels); elements deeper
than `MAX_DEPTH` are unwrapped, keeping their text. Layout tables become
blocks (`tables.py`): the renderer cannot split a table row over pages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from lxml import etree
from lxml import html as lxml_html

from engines.convert.markup.tables import linearize_layout_tables

MAX_DEPTH = 100

# Removed with everything inside them.
_DROP = (
    "script",
    "iframe",
    "frame",
    "frameset",
    "object",
    "embed",
    "applet",
    "link",
    "meta",
    "base",
    "audio",
    "video",
    "source",
    "track",
    "canvas",
    "template",
    "svg",
    "math",
    "input",
    "button",
    "select",
    "textarea",
    "param",
    "portal",
)
# Removed, their content kept (shown as when scripts are off).
_UNWRAP = ("noscript", "form", "font", "blink", "marquee")
# Attributes that name a resource to load.
_RESOURCE_ATTRIBUTES = frozenset(
    {
        "src",
        "srcset",
        "background",
        "poster",
        "lowsrc",
        "dynsrc",
        "longdesc",
        "usemap",
        "action",
        "formaction",
        "data",
        "codebase",
        "cite",
        "ping",
        "xmlns",
    }
)
_LINK_SCHEMES = ("http:", "https:", "mailto:")
_CSS_IMPORT = re.compile(r"@import[^;]*;?", re.IGNORECASE)
_CSS_URL = re.compile(r"url\s*\([^)]*\)?", re.IGNORECASE)
_CSS_EXPRESSION = re.compile(r"expression\s*\(", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


def sanitize(markup: str, *, images: Mapping[str, str] | None = None) -> str:
    """A safe HTML document for `markup`.

    `images` maps an e-mail's `cid:` content ids (without `cid:`, lower
    case) to the names under which the renderer's archive holds them.
    """
    root = _parse(markup)
    etree.strip_elements(
        root, etree.Comment, etree.ProcessingInstruction, *_DROP, with_tail=False
    )
    etree.strip_tags(root, *_UNWRAP)
    _flatten_deep(root)
    linearize_layout_tables(root)
    for element in list(root.iter()):
        if not isinstance(element.tag, str):
            continue
        if element.tag == "style":
            element.text = clean_css(element.text or "")
            continue
        _clean_attributes(element)
        if element.tag == "img":
            _clean_image(element, images or {})
    return etree.tostring(root, encoding="unicode", method="html")


def clean_css(css: str) -> str:
    """`css` without imports, `url(...)` references or IE expressions."""
    css = _CSS_IMPORT.sub("", css)
    css = _CSS_URL.sub("none", css)
    return _CSS_EXPRESSION.sub("(", css)


def _parse(markup: str) -> lxml_html.HtmlElement:
    markup = _XML_DECLARATION.sub("", markup.lstrip("\ufeff"), count=1)
    if not markup.strip():
        markup = "<html><body></body></html>"
    try:
        return lxml_html.document_fromstring(markup)
    except (etree.ParserError, ValueError):
        # Nothing lxml can build a tree from: show it as text.
        return lxml_html.document_fromstring("<html><body><pre></pre></body></html>")


def _flatten_deep(root: lxml_html.HtmlElement) -> None:
    deep = [element for element in root.iter() if _depth(element) > MAX_DEPTH]
    for element in reversed(deep):  # innermost first
        if isinstance(element, lxml_html.HtmlElement):
            element.drop_tag()


def _depth(element: etree._Element) -> int:
    depth = 0
    parent = element.getparent()
    while parent is not None:
        depth += 1
        parent = parent.getparent()
    return depth


def _clean_attributes(element: lxml_html.HtmlElement) -> None:
    for name in list(element.attrib):
        lowered = name.lower()
        value = element.attrib[name]
        if lowered.startswith("on") or lowered in _RESOURCE_ATTRIBUTES - {"src"}:
            del element.attrib[name]
        elif lowered == "style":
            element.attrib[name] = clean_css(value)
        elif lowered == "href" and not value.strip().lower().startswith(_LINK_SCHEMES):
            del element.attrib[name]
        elif lowered == "src" and element.tag != "img":
            del element.attrib[name]


def _clean_image(element: lxml_html.HtmlElement, images: Mapping[str, str]) -> None:
    source = (element.get("src") or "").strip()
    lowered = source.lower()
    if lowered.startswith("data:image/"):
        return
    if lowered.startswith("cid:") and source[4:].strip("<>").lower() in images:
        element.set("src", images[source[4:].strip("<>").lower()])
        return
    # A remote or local image: never loaded; its description stays.
    alt = (element.get("alt") or "").strip()
    replacement = lxml_html.Element("span")
    replacement.text = f"[{alt}]" if alt else ""
    replacement.tail = element.tail
    parent = element.getparent()
    if parent is not None:
        parent.replace(element, replacement)
