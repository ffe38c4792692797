#!/usr/bin/env bash
# Creates the virtual environment and installs the project with its test tools,
# plus the Debian tools the service and its tests call (poppler-utils, qpdf).
set -euo pipefail
venv="${1:-.venv}"

apt_install() {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian packages: $*"
    apt-get update -qq >/dev/null || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "missing: $* (install them with your package manager)" >&2
    return 1
  fi
}

python=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null &&
     "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    python="$candidate"; break
  fi
done
[ -n "$python" ] || { echo "Python >= 3.11 is required" >&2; exit 1; }

if [ ! -x "$venv/bin/python" ]; then
  if ! "$python" -m venv "$venv" 2>/dev/null; then
    rm -rf "$venv"
    apt_install python3-venv
    "$python" -m venv "$venv"
  fi
fi
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -e '.[dev]'

missing=()
command -v pdftotext >/dev/null || missing+=(poppler-utils)
command -v qpdf >/dev/null || missing+=(qpdf)
[ ${#missing[@]} = 0 ] || apt_install "${missing[@]}" || true
