"""Build one PDF from pages of others: transformation elements joined in order.

Page bases: a `PageRange` counts from 1, inclusive (the wire's minPage/maxPage);
every other page index here (`PageOrigin.page`, positions in the output) counts
from 0.

The copy runs in qpdf (through pikepdf), so the cost is close to
`qpdf --empty --pages ...`. What qpdf does not do for us is done here:

- a page taken twice becomes two page objects (sharing content streams and
  resources, each with its own annotations, so a viewer or a later step that
  edits one copy's annotations leaves the other alone);
- link annotations are kept only when their target page is in the output, and
  named destinations are rewritten as explicit ones (the output carries no
  name tree);
- form fields on the copied pages stay functional (`/AcroForm`), renamed when
  two copies would share a name;
- each source's outline (bookmarks) is carried, pruned to the pages kept;
- optional content (layers) keeps its configuration: hidden layers stay hidden;
- a field with widgets on several pages keeps only those on copied pages.

Each source file is opened once, however many elements name it, so objects
shared by its pages (fonts, images) are copied once into the output.
Page labels, the structure tree (tagging) and document-level JavaScript,
attachments and metadata of the sources are not carried over.

Layout: `sources` (opening the files, planning the output pages), `pages`
(copying pages, annotations and fields), `links` (link targets into the output),
`outline` (bookmarks), `layers` (optional content), `build` (`assemble`
itself); `names` holds the PDF names.
"""

from engines.pdf.assemble.build import assemble
from engines.pdf.assemble.sources import page_count

__all__ = ["assemble", "page_count"]
