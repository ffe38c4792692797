"""A typed Python client of transformsvc's REST API, and the `transformsvc`
command (`transformsvc_client.cli`).

    from transformsvc_client import Client
    client = Client("http://127.0.0.1:8761")
    doc = client.documents.upload("in.pdf")
"""

from transformsvc_client.client import Client
from transformsvc_client.errors import (
    ClientError,
    OrderFailed,
    ProblemError,
    ServiceUnreachable,
    WaitTimeout,
)
from transformsvc_client.shapes import (
    Box,
    DocumentInfo,
    Layout,
    Order,
    PageSize,
    SearchHit,
)

__all__ = [
    "Box",
    "Client",
    "ClientError",
    "DocumentInfo",
    "Layout",
    "Order",
    "OrderFailed",
    "PageSize",
    "ProblemError",
    "SearchHit",
    "ServiceUnreachable",
    "WaitTimeout",
]
