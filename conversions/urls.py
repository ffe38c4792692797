from django.urls import re_path

from conversions import api

urlpatterns = [
    re_path(
        r"^conversions$", api.ConversionCollectionView.as_view(), name="conversions"
    ),
    re_path(
        r"^conversions/(?P<order_id>[^/]+)$",
        api.ConversionDetailView.as_view(),
        name="conversion-detail",
    ),
    # Before the documents' own routes: a document id may hold "/conversions".
    re_path(
        r"^documents/(?P<document_id>.+?)/conversions$",
        api.DocumentConversionsView.as_view(),
        name="document-conversions",
    ),
]
