"""The dashboard's route, included by the project under admin/dashboard/."""

from django.contrib import admin
from django.urls import path

from jobs.dashboard.views import dashboard

urlpatterns = [
    path("", admin.site.admin_view(dashboard), name="admin-dashboard"),
]
