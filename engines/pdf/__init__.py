"""The PDF engine: pure functions on paths, bytes and dataclasses.

Nothing in this package imports Django. Every position it takes or returns is in
the displayed-page space of decisions §4 (points, origin top-left of the page as
displayed, /Rotate applied); conversions live in `geometry`.
"""
