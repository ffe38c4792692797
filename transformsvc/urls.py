"""Top-level routes: the contract's paths (no version segment), admin, docs, health.

Apps are named by their URL modules only, so that this package imports none of them.
"""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularJSONAPIView, SpectacularSwaggerView

urlpatterns = [
    path("", include("ops.urls")),
    path("openapi.json", SpectacularJSONAPIView.as_view(), name="openapi"),
    path("docs", SpectacularSwaggerView.as_view(url_name="openapi"), name="docs"),
    # The same at the original's paths.
    path("v3/api-docs", SpectacularJSONAPIView.as_view(), name="openapi-v3"),
    path(
        "swagger-ui/index.html",
        SpectacularSwaggerView.as_view(url_name="openapi"),
        name="swagger-ui",
    ),
    path("admin/dashboard/", include("jobs.dashboard.urls")),
    path("admin/", admin.site.urls),
    path("", include("orders.urls")),
    path("", include("comparisons.urls")),
    path("", include("conversions.urls")),
    path("", include("annotations.urls")),
    path("", include("connectors.urls")),
    path("", include("documents.urls")),
]

handler400 = "transformsvc.problems.handler400"
handler404 = "transformsvc.problems.handler404"
handler500 = "transformsvc.problems.handler500"
