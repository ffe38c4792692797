"""PDF names used by the copy, as pikepdf `Name`s."""

from pikepdf import Name

# Names built once: the link pass looks at every annotation of the output.
A, D, S = Name("/A"), Name("/D"), Name("/S")
ANNOTS, DEST, DESTS = Name("/Annots"), Name("/Dest"), Name("/Dests")
GOTO, LINK, SUBTYPE = Name("/GoTo"), Name("/Link"), Name("/Subtype")
NAMES, WIDGET = Name("/Names"), Name("/Widget")
FONT, RESOURCES, XOBJECT = Name("/Font"), Name("/Resources"), Name("/XObject")
COUNT, FIRST, NEXT = Name("/Count"), Name("/First"), Name("/Next")
OUTLINES, PAGE_MODE, TITLE = Name("/Outlines"), Name("/PageMode"), Name("/Title")
URI, USE_OUTLINES = Name("/URI"), Name("/UseOutlines")
