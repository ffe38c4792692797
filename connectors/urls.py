from django.urls import re_path

from connectors import api

urlpatterns = [
    re_path(r"^accessor/load$", api.AccessorLoadView.as_view(), name="accessor-load"),
    re_path(
        r"^connector/documents$",
        api.ConnectorDocumentsView.as_view(),
        name="connector-documents",
    ),
]
