"""Where files go: a folder of the data directory, or any django-storages
backend (S3 and S3-compatible stores) named by TRANSFORMSVC_STORAGE_BACKEND."""

from __future__ import annotations

import os
from typing import Any


def storages() -> dict[str, dict[str, Any]]:
    # Files go through Django storages: a folder under the data directory by default,
    # any django-storages backend (e.g. S3) when TRANSFORMSVC_STORAGE_BACKEND names one.
    found: dict[str, dict[str, Any]] = {
        "default": {
            "BACKEND": os.environ.get(
                "TRANSFORMSVC_STORAGE_BACKEND",
                "django.core.files.storage.FileSystemStorage",
            ),
        },
        "staticfiles": {
            "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        },
    }
    if found["default"]["BACKEND"].endswith("S3Storage"):
        # S3 or any S3-compatible store (MinIO, Ceph...): what every node shares. The
        # keys come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or an instance
        # role), as boto3 reads them.
        from boto3.s3.transfer import TransferConfig
        from botocore.config import Config as S3Config

        found["default"]["OPTIONS"] = {
            "bucket_name": os.environ.get("AWS_STORAGE_BUCKET_NAME", "transformsvc"),
            "endpoint_url": os.environ.get("AWS_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("AWS_S3_REGION_NAME") or None,
            # Names are random (documents/models.py): no existence check per save.
            "file_overwrite": True,
            # A file read from the store spills to disk past this; django-storages'
            # default (0) keeps a whole download in the web process's memory.
            "max_memory_size": 2 * 1024 * 1024,
            # One part at a time: with boto3's default 10 threads of 8 MiB parts a
            # 44 MB download raised a web process's peak memory by 14 to 58 MB here;
            # like this, by under 4 MB.
            "transfer_config": TransferConfig(use_threads=False),
            # A store that does not answer fails a request (and /ready) in seconds,
            # not after boto3's minute-long default timeouts.
            "client_config": S3Config(
                # "path" for most S3-compatible stores: they serve no bucket subdomains.
                s3={
                    "addressing_style": os.environ.get("AWS_S3_ADDRESSING_STYLE")
                    or None
                },
                signature_version="s3v4",
                connect_timeout=5,
                read_timeout=60,
                retries={"max_attempts": 3, "mode": "standard"},
            ),
        }
    return found
