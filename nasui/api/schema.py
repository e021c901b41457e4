"""The OpenAPI schema says what the API really answers, errors included."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response

# The one error body (nasui.api.errors.exception_handler): a summary, a code, and the
# messages by field.
ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "detail": {"type": "string"},
        "code": {"type": "string"},
        "fields": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
    "required": ["detail", "code", "fields"],
}
ERRORS = {
    "400": "Invalid input: `fields` names each field and the rule it broke.",
    "401": "No valid token or session.",
    "403": "Logged in, but not allowed.",
    "404": "No such object.",
    "503": "The storage engine is unavailable (OpenZFS missing or not answering).",
}
BODY_ERRORS = {"413": "The request body is over the size limit."}
WRITE_METHODS = ("post", "put", "patch")


def _error(description: str) -> dict[str, Any]:
    """One documented error response with the shared body."""
    content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    return {"description": description, "content": content}


def add_error_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular post-processing hook: every operation documents the errors it can give."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            errors = {**ERRORS, **(BODY_ERRORS if method in WRITE_METHODS else {})}
            for code, description in errors.items():
                operation["responses"].setdefault(code, _error(description))
    return result


class CachedSchemaView(SpectacularAPIView):
    """The schema, built once per process and API version: it depends only on the code, and
    building it walks every view (about a second each time otherwise)."""

    _built: ClassVar[dict[str | None, Any]] = {}

    def _get_schema_response(self, request: Request) -> Response:
        # drf-spectacular's own steps, untyped there: the version, the generator, the file name.
        version = self.api_version or request.version or self._get_version_parameter(request)  # type: ignore[no-untyped-call]
        if version not in self._built:
            generator = self.generator_class(
                urlconf=self.urlconf, api_version=version, patterns=self.patterns
            )
            self._built[version] = generator.get_schema(request=request, public=self.serve_public)  # type: ignore[no-untyped-call]
        filename = self._get_filename(request, version)  # type: ignore[no-untyped-call]
        return Response(
            data=self._built[version],
            headers={"Content-Disposition": f'inline; filename="{filename}"'},
        )
