from django.urls import re_path

from comparisons import api

urlpatterns = [
    re_path(r"^difference$", api.DifferenceView.as_view(), name="difference"),
    re_path(
        r"^comparisons$", api.ComparisonCollectionView.as_view(), name="comparisons"
    ),
    re_path(
        r"^comparisons/(?P<order_id>[^/]+)$",
        api.ComparisonDetailView.as_view(),
        name="comparison-detail",
    ),
]
