"""Layout tables turned into blocks, so that no text is lost to pagination.

MuPDF's Story lays a table row out on one page: it cannot split a row, and
a cell taller than a page is cut at the page's foot, with everything after
the table (measured: 32 of 80 paragraphs kept, and nothing after). Mails and
newsletters put whole messages in one cell of a layout table (a quoted
header block in nested tables inside `<blockquote>`/`<center>`, the rest of
the message below it in the same cell). Such tables are not data: their rows
and cells become `<div>`s, stacked, each keeping its style; a data table
(cells of inline text) keeps its grid.
"""

from __future__ import annotations

from lxml import etree
from lxml import html as lxml_html

# A cell holding any of these is page layout, not a datum.
_BLOCKS = frozenset(
    {
        "table",
        "p",
        "div",
        "blockquote",
        "center",
        "ul",
        "ol",
        "dl",
        "pre",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "section",
        "article",
    }
)
# A cell with more text than this, or more line breaks, may be taller than
# an A4 page's 770 pt at 11 pt in a narrow column: laid out as a block.
_MAX_CELL_CHARS = 1500
_MAX_CELL_BREAKS = 30
_TABLE_PARTS = ("table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption")


def linearize_layout_tables(root: lxml_html.HtmlElement) -> None:
    """Turn every layout table under `root` into blocks, in place."""
    for table in list(root.iter("table")):
        if _is_layout(table):
            _to_blocks(table)


def _is_layout(table: etree._Element) -> bool:
    for cell in table.iter("td", "th"):
        if _owner(cell) is not table:
            continue  # a cell of a nested table decides for that table
        breaks = 0
        for inner in cell.iterdescendants():
            if inner.tag in _BLOCKS:
                return True
            breaks += inner.tag == "br"
        if breaks > _MAX_CELL_BREAKS or len(cell.text_content()) > _MAX_CELL_CHARS:
            return True
    return False


def _owner(cell: etree._Element) -> etree._Element | None:
    parent = cell.getparent()
    while parent is not None and parent.tag != "table":
        parent = parent.getparent()
    return parent


def _to_blocks(table: etree._Element) -> None:
    parts = [table]
    for part in table.iterdescendants(*_TABLE_PARTS):
        if part.tag == "table" or _owner(part) is table:
            parts.append(part)
    for part in parts:
        if part.tag == "table" and part is not table:
            continue  # a nested table decides for itself
        style = part.get("style")
        for name in list(part.attrib):
            del part.attrib[name]
        if style:
            part.set("style", style)
        part.set("class", f"layout-{part.tag}")
        part.tag = "div"
