import multiprocessing

from django.apps import AppConfig


class OpsConfig(AppConfig):
    """What operators read: liveness, readiness, service records, versions and
    metrics."""

    name = "ops"

    def ready(self) -> None:
        from jobs import queues
        from ops.metrics import receivers
        from transformsvc import paths

        receivers.connect()
        if (
            paths.process_role() == "worker"
            and multiprocessing.parent_process() is None
            and queues.served_here() == queues.MAIN
        ):
            # The main qcluster's main process, once, before it forks its workers:
            # the files of an earlier cluster of this node are stale. The OCR
            # queue's cluster shares the folder and leaves it be (its dead
            # processes' gauges are forgotten at the scrape all the same).
            paths.clean_metrics(paths.metrics_dir("worker"))
