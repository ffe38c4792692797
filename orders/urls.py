from django.urls import re_path

from orders import api

urlpatterns = [
    re_path(
        r"^transformations$",
        api.TransformationCollectionView.as_view(),
        name="transformations",
    ),
    re_path(
        r"^transformations/(?P<order_id>[^/]+)/redactions$",
        api.TransformationRedactionsView.as_view(),
        name="transformation-redactions",
    ),
    re_path(
        r"^transformations/(?P<order_id>[^/]+)$",
        api.TransformationDetailView.as_view(),
        name="transformation-detail",
    ),
]
