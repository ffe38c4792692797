#!/usr/bin/env bash
# Sourced by test.sh: sets DATABASE_URL to a PostgreSQL server, starting a throwaway
# cluster under var/pgtest when none answers (installing PostgreSQL if needed).
# PGTEST_THROWAWAY=1 uses the throwaway cluster even when a server answers.
py="${VENV:-.venv}/bin/python"

pg_answers() {
  "$py" - "$1" <<'PY' 2>/dev/null
import sys, psycopg
psycopg.connect(sys.argv[1], connect_timeout=3).close()
PY
}

with_db() {  # the same server URL, pointing at database $2
  "$py" -c 'import sys; from urllib.parse import urlsplit, urlunsplit; u = urlsplit(sys.argv[1]); print(urlunsplit(u._replace(path="/" + sys.argv[2])))' "$1" "$2"
}

if [ -n "${DATABASE_URL:-}" ]; then
  case "$DATABASE_URL" in
    postgres://*|postgresql://*) ;;
    *) echo "DATABASE_URL must be a postgres:// URL for the test suite" >&2; exit 1 ;;
  esac
  pg_answers "$(with_db "$DATABASE_URL" postgres)" ||
    { echo "PostgreSQL at DATABASE_URL does not answer" >&2; exit 1; }
elif [ -z "${PGTEST_THROWAWAY:-}" ] && pg_answers "postgresql://postgres@127.0.0.1:5432/postgres"; then
  export DATABASE_URL="postgres://postgres@127.0.0.1:5432/transformsvc"
else
  echo "starting a throwaway PostgreSQL cluster under var/pgtest"
  bindir=""
  find_bindir() {
    for d in /usr/lib/postgresql/*/bin; do [ -x "$d/initdb" ] && bindir="$d"; done
    [ -n "$bindir" ] || { command -v pg_config >/dev/null && bindir="$(pg_config --bindir)"; }
    [ -x "$bindir/initdb" ] || bindir=""
  }
  find_bindir
  if [ -z "$bindir" ]; then
    [ "$(id -u)" = 0 ] || { echo "PostgreSQL is not installed (need root to install it)" >&2; exit 1; }
    apt-get update -qq >/dev/null || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    find_bindir
  fi
  data="$PWD/var/pgtest"
  port="${PGTEST_PORT:-54329}"
  mkdir -p "$data"
  run_as=()
  if [ "$(id -u)" = 0 ]; then  # initdb refuses to run as root
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown -R postgres "$data"
    run_as=(runuser -u postgres --)
  fi
  [ -f "$data/PG_VERSION" ] || "${run_as[@]}" "$bindir/initdb" -D "$data" -U postgres \
    --auth=trust -E UTF8 >/dev/null
  "${run_as[@]}" "$bindir/pg_ctl" -D "$data" -l "$data/server.log" -w start \
    -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c fsync=off" >/dev/null
  trap '"${run_as[@]}" "$bindir/pg_ctl" -D "$data" -m fast stop >/dev/null' EXIT
  export DATABASE_URL="postgres://postgres@127.0.0.1:$port/transformsvc"
fi
