"""Signals documents send to the apps that work on them.

`rendition_requested(document=<Document>)` is sent, inside the transaction that
stores the document, when the document needs a worker to become readable (an
Office file to convert, an e-mail to unpack, a scan to recognise). The
conversions app answers it with a conversion order to PDF; documents does not
import that app.
"""

from django.dispatch import Signal

rendition_requested = Signal()
