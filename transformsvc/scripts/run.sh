#!/usr/bin/env bash
# `make run`: migrate, then the web server (gunicorn) and the django-q2 workers
# together: the main queue's cluster and the OCR queue's (scans are recognised
# there, at a lower priority; README, "Queues"). Ctrl-C stops all three.
set -euo pipefail
venv="${VENV:-.venv}"
port="${PORT:-8761}"
mkdir -p var "${TRANSFORMSVC_DATA_DIR:-var}"
export DJANGO_SETTINGS_MODULE=transformsvc.settings
"$venv/bin/python" manage.py migrate --noinput >/dev/null
"$venv/bin/python" manage.py collectstatic --noinput >/dev/null

"$venv/bin/gunicorn" -c transformsvc/gunicorn_conf.py transformsvc.wsgi:application &
web=$!
TRANSFORMSVC_WORKER_QUEUE=main "$venv/bin/python" manage.py qcluster &
worker=$!
TRANSFORMSVC_WORKER_QUEUE=ocr "$venv/bin/python" manage.py qcluster &
ocr_worker=$!

stop() {
  trap - INT TERM EXIT
  kill -TERM "$web" "$worker" "$ocr_worker" 2>/dev/null || true
  wait "$web" "$worker" "$ocr_worker" 2>/dev/null || true
}
trap stop INT TERM EXIT
echo "transformsvc serving on http://127.0.0.1:$port (docs at /docs); Ctrl-C stops"
wait -n "$web" "$worker" "$ocr_worker" || true
