"""Engines: the Django-free library the apps call (PDF, conversion, OCR)."""
