import multiprocessing

from django.apps import AppConfig


class OpsConfig(AppConfig):
    """What operators read: liveness, readiness, service records, versions and
    metrics."""

    name = "ops"

    def ready(self) -> None:
        from ops.metrics import receivers
        from transformsvc import paths

        receivers.connect()
        if (
            paths.process_role() == "worker"
            and multiprocessing.parent_process() is None
        ):
            # The qcluster's main process, once, before it forks its workers: the
            # files of an earlier cluster of this node are stale.
            paths.clean_metrics(paths.metrics_dir("worker"))
