from django.urls import path

from ops import api, health
from ops.metrics.view import metrics

urlpatterns = [
    path("health", health.health, name="health"),
    path("ready", health.ready, name="ready"),
    # The original's operations paths.
    path("health/readiness", api.ReadinessView.as_view(), name="health-readiness"),
    path("health/records", api.RecordsView.as_view(), name="health-records"),
    path("health/records/raw", api.RecordsRawView.as_view(), name="health-records-raw"),
    path("version", api.VersionView.as_view(), name="version"),
    path("metadata", api.MetadataView.as_view(), name="metadata"),
    path("weather", api.WeatherView.as_view(), name="weather"),
    path("metrics", metrics, name="metrics"),
]
