#!/usr/bin/env bash
# `make bench`: the service (gunicorn + qcluster on PostgreSQL) against raw tools.
# Prints the table and writes var/bench.json. Arguments go to bench/run.py
# (e.g. `transformsvc/scripts/bench.sh --only 2,8 --runs 7`).
set -euo pipefail
export VENV="${VENV:-.venv}"
# The baselines' own tools (OCRmyPDF for bench_ocr), installed once.
if ! "$VENV/bin/python" -c "import ocrmypdf" 2>/dev/null; then
  "$VENV/bin/python" -m pip install -q -e '.[dev,bench]'
fi
given_db="${DATABASE_URL:-}"
# A PostgreSQL server: DATABASE_URL, else 127.0.0.1:5432, else a throwaway cluster.
source transformsvc/scripts/pg.sh
if [ -z "$given_db" ]; then
  # The benchmark's own database on that server (it is emptied before each run).
  export DATABASE_URL="${DATABASE_URL%/*}/transformsvc_bench"
fi
# Not exec: pg.sh's EXIT trap stops the throwaway cluster when it started one.
status=0
"$VENV/bin/python" bench/run.py "$@" || status=$?
if [ $# = 0 ]; then
  # The engines' own benchmarks, each with its baselines in the same run: the
  # LibreOffice pool (warm, unoserver, cold soffice, 10 clients, memory over 500
  # conversions), OCR (Tesseract CLI vs PyMuPDF, words and boxes found) and the
  # reporting views at 1,000,000 orders (a database of their own), the order
  # operations (stamp, Bates, optimize) against PyMuPDF, qpdf and Ghostscript,
  # verified redaction against PyMuPDF redacting in process, and redaction by
  # rules (one order's worker) against PyMuPDF, 20 scans uploaded at once while
  # PDFs are viewed at 1.5 docs/s (goal: the PDFs' P95 <= 150 ms, every scan
  # searchable); then a 1-hour soak (each process's
  # memory after warm-up, goal +50 MB) and 10,000 fuzzed and hostile requests
  # through gunicorn (goal: no 5xx).
  for extra in bench/bench_convert.py bench/bench_ocr.py bench/bench_reporting.py \
      bench/bench_ops.py bench/bench_redact_verify.py bench/bench_rules.py \
      bench/bench_scan_burst.py bench/soak.py bench/fuzz.py; do
    echo "== $extra"
    "$VENV/bin/python" "$extra" || status=$?
  done
fi
exit "$status"
