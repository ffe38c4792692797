#!/usr/bin/env bash
# Creates the virtual environment and installs the project with its test tools,
# plus the Debian packages the service and its tests call: poppler-utils and qpdf
# (PDF checks), LibreOffice without GUI, its Python bridge (python3-uno, used by
# the office pool's server with the system Python) and fonts (the converters:
# metric-compatible stand-ins for Calibri, Cambria and Tahoma among them),
# mupdf-tools and chromium (tests: admin screenshots), tesseract and its languages (OCR), and redis-server, which
# the tests start when no Redis answers on 127.0.0.1:6379.
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
command -v redis-server >/dev/null || missing+=(redis-server)
# The office pool runs LibreOffice in network namespaces (util-linux's unshare).
command -v unshare >/dev/null || missing+=(util-linux)
# The README's curl example pipes into jq (tests/test_readme_example.py runs it).
command -v jq >/dev/null || missing+=(jq)
# Debian packages that are checked by name: installed or not. Tesseract comes
# with its orientation model and the languages read by default.
wanted_packages=(
  libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui
  libreoffice-draw-nogui python3-uno
  fonts-liberation fonts-dejavu fonts-noto-core fonts-noto-cjk
  fonts-crosextra-carlito fonts-crosextra-caladea fonts-wine
  mupdf-tools chromium ghostscript
  tesseract-ocr tesseract-ocr-osd tesseract-ocr-eng tesseract-ocr-fra
  tesseract-ocr-deu tesseract-ocr-spa tesseract-ocr-ita tesseract-ocr-por
  tesseract-ocr-nld
)
if command -v dpkg-query >/dev/null; then
  for package in "${wanted_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
fi
[ ${#missing[@]} = 0 ] || apt_install "${missing[@]}" || true
