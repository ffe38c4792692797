"""HTTP endpoints of documents: one view per endpoint, parse → service → serialize;
one module per group of endpoints."""
