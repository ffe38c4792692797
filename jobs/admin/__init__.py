"""The admin of orders (every kind), the workers' heartbeats and the task queue.

django-q2's own "Successful tasks" and "Failed tasks" pages are taken off the
admin: our task wrapper catches an order's failure and marks the order FAILED, so
django-q records the task as a success; those pages showed failed orders as
successful tasks. The order lists (and the dashboard) say how orders went; the
queue's "Queued tasks" page stays, it shows what waits in the broker.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django_q.models import Failure, Success

from jobs.admin.base import OrderAdminBase
from jobs.models import WorkerHeartbeat

__all__ = ["OrderAdminBase"]

admin.site.site_header = "transformsvc"
admin.site.site_title = "transformsvc admin"
admin.site.index_title = "Documents, orders and the queue"
# The lists are wide (pictures, ids, times): they get the whole screen.
admin.site.enable_nav_sidebar = False

for _model in (Success, Failure):
    if admin.site.is_registered(_model):
        admin.site.unregister(_model)


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin[WorkerHeartbeat]):
    list_display = ("name", "seen_at")
    readonly_fields = ("name", "seen_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
