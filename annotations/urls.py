from django.urls import re_path

from annotations import api

urlpatterns = [
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
