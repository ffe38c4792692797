"""Prometheus metrics of the service (GET /metrics), across processes.

gunicorn's and the qcluster's processes each write their counters, histograms
and gauges to files (prometheus-client's multiprocess mode, one folder per kind
of process under TRANSFORMSVC_METRICS_DIR, see `transformsvc.paths`); a scrape
merges every file of the node and adds what the database knows at that moment
(queue depth, oldest queued order, worker heartbeats). Each node is scraped on
its own; a Prometheus server sums them.

- every metric the processes record is named once in `transformsvc.metrics`.
- `middleware`: HTTP requests by route name, method and status; pool gauges.
- `receivers`: orders created and ended (Django signals), uploads.
- `collectors`: the merge of the files and the database reads of a scrape.
- `conversion`: the observer the LibreOffice pool calls (no import of its own).
- `view`: GET /metrics, open unless TRANSFORMSVC_METRICS_KEY names a key.
"""
