"""Document routes: ids may hold `/`, so routes match on the known suffixes."""

from django.urls import re_path

from documents import api

ID = r"(?P<document_id>.+?)"
PAGE = r"(?P<page>-?\d+)"

urlpatterns = [
    re_path(r"^documents$", api.DocumentUploadView.as_view(), name="document-upload"),
    re_path(
        rf"^documents/{ID}/pages/{PAGE}/text/position$",
        api.PageTextPositionView.as_view(),
        name="page-text-position",
    ),
    re_path(
        rf"^documents/{ID}/pages/{PAGE}/text$",
        api.PageTextSearchView.as_view(),
        name="page-text",
    ),
    re_path(
        rf"^documents/{ID}/pages/{PAGE}/image$",
        api.PageImageView.as_view(),
        name="page-image",
    ),
    re_path(
        rf"^documents/{ID}/layout$",
        api.DocumentLayoutView.as_view(),
        name="document-layout",
    ),
    re_path(
        rf"^documents/{ID}/file$", api.DocumentFileView.as_view(), name="document-file"
    ),
    re_path(
        rf"^documents/{ID}$", api.DocumentDetailView.as_view(), name="document-detail"
    ),
]
