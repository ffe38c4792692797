"""Document routes: ids may hold `/`, so routes match on the known suffixes."""

from django.urls import re_path

from documents.views import detail, files, pages, search, structure, upload

ID = r"(?P<document_id>.+?)"
PAGE = r"(?P<page>-?\d+)"

urlpatterns = [
    re_path(
        r"^documents$", upload.DocumentUploadView.as_view(), name="document-upload"
    ),
    re_path(
        r"^documents/layout$",
        upload.DocumentLayoutUploadView.as_view(),
        name="document-layout-upload",
    ),
    re_path(
        rf"^documents/{ID}/pages/{PAGE}/text/position$",
        pages.PageTextPositionView.as_view(),
        name="page-text-position",
    ),
    re_path(
        rf"^documents/{ID}/pages/{PAGE}/text$",
        pages.PageTextSearchView.as_view(),
        name="page-text",
    ),
    re_path(
        rf"^documents/{ID}/pages/{PAGE}/image$",
        pages.PageImageView.as_view(),
        name="page-image",
    ),
    re_path(
        rf"^documents/{ID}/pages$",
        search.PagesSearchView.as_view(),
        name="document-pages-search",
    ),
    re_path(
        rf"^documents/{ID}/search$",
        search.DocumentSearchView.as_view(),
        name="document-search",
    ),
    re_path(
        rf"^documents/{ID}/layout$",
        detail.DocumentLayoutView.as_view(),
        name="document-layout",
    ),
    re_path(
        rf"^documents/{ID}/file/chunk$",
        files.DocumentChunkView.as_view(),
        name="document-file-chunk",
    ),
    re_path(
        rf"^documents/{ID}/file/annotations$",
        files.DocumentAnnotationsFileView.as_view(),
        name="document-file-annotations",
    ),
    re_path(
        rf"^documents/{ID}/file$",
        files.DocumentFileView.as_view(),
        name="document-file",
    ),
    re_path(
        rf"^documents/{ID}/bookmarks$",
        structure.BookmarksView.as_view(),
        name="document-bookmarks",
    ),
    re_path(
        rf"^documents/{ID}/destinations$",
        structure.DestinationsView.as_view(),
        name="document-destinations",
    ),
    re_path(
        rf"^documents/{ID}/signatures$",
        structure.SignaturesView.as_view(),
        name="document-signatures",
    ),
    re_path(
        rf"^documents/{ID}/printable$",
        structure.PrintableView.as_view(),
        name="document-printable",
    ),
    re_path(
        rf"^documents/{ID}/check$",
        detail.DocumentCheckView.as_view(),
        name="document-check",
    ),
    re_path(
        rf"^documents/{ID}$",
        detail.DocumentDetailView.as_view(),
        name="document-detail",
    ),
]
