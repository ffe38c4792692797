"""The admin's dashboard: orders of every kind over a window of days, drawn as
server-side SVG from indexed aggregate queries (queries.py, charts.py, views.py)."""
