from django.urls import re_path

from annotations import api, document_api

# A document id may hold `/`: it ends before the first "/annotations" that is
# not its `/file/annotations` (the XFDF of documents.urls).
DOCUMENT = r"documents/(?P<document_id>.+?(?<!/file))/annotations"

urlpatterns = [
    re_path(
        rf"^{DOCUMENT}/ids$",
        document_api.DocumentAnnotationIdsView.as_view(),
        name="document-annotation-ids",
    ),
    re_path(
        rf"^{DOCUMENT}$",
        document_api.DocumentAnnotationsView.as_view(),
        name="document-annotations",
    ),
    re_path(
        rf"^{DOCUMENT}/(?P<annotation_id>.+)$",
        document_api.DocumentAnnotationView.as_view(),
        name="document-annotation",
    ),
    re_path(r"^annotation$", api.AnnotationStoreView.as_view(), name="annotation"),
    re_path(
        r"^annotation/policy$",
        api.AnnotationPolicyView.as_view(),
        name="annotation-policy",
    ),
    re_path(
        r"^annotations/conversion$",
        api.AnnotationConversionView.as_view(),
        name="annotations-conversion",
    ),
]
