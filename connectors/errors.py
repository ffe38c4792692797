"""How a provider's refusals and failures are answered (problem+json, like every
error of the service)."""

from __future__ import annotations

from transformsvc.problems import ServiceError


class ProviderDenied(ServiceError):
    """The provider refused the caller the document (its 401/403)."""

    status = 403
    title = "Access denied by the provider"
    code = "provider_denied"


class ProviderFailed(ServiceError):
    """The provider could not be reached, or answered something unusable."""

    status = 502
    title = "Provider unreachable"
    code = "provider_unreachable"
