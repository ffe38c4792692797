"""Top-level routes: the contract's paths (no version segment), admin, docs, health."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerView

from transformsvc import health

urlpatterns = [
    path("health", health.health, name="health"),
    path("ready", health.ready, name="ready"),
    path("openapi.json", SpectacularJSONAPIView.as_view(), name="openapi"),
    path("docs", SpectacularSwaggerView.as_view(url_name="openapi"), name="docs"),
    path("admin/", admin.site.urls),
    path("", include("orders.urls")),
    path("", include("comparisons.urls")),
    path("", include("documents.urls")),
]

handler400 = "transformsvc.problems.handler400"
handler404 = "transformsvc.problems.handler404"
handler500 = "transformsvc.problems.handler500"
