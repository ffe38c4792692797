"""How the API description names the bearer key (drf-spectacular extension,
registered when the app is ready)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class BearerKeyScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.auth.BearerKeyAuthentication"
    name = "bearer"

    def get_security_requirement(self, auto_schema: Any) -> list[dict[str, Any]]:
        # A key, or none: without TRANSFORMSVC_AUTH=token no key is asked for.
        return [{self.name: []}, {}]

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key, `Authorization: Bearer <key>`, when the "
            "service runs with TRANSFORMSVC_AUTH=token (keys are made with "
            "`manage.py createapikey <owner>` or the admin); each key sees only "
            "its owner's documents and orders. Without it, no key is needed.",
        }
