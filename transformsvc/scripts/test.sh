#!/usr/bin/env bash
# `make test`: the whole suite on PostgreSQL (never SQLite).
set -euo pipefail
export VENV="${VENV:-.venv}"
source transformsvc/scripts/pg.sh
echo "test database server: ${DATABASE_URL%/*}"
status=0
"$VENV/bin/python" -m pytest "$@" || status=$?
if [ "$status" = 5 ]; then
  echo "no tests were collected" >&2
fi
exit "$status"
