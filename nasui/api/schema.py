"""The OpenAPI schema says what the API really answers, errors included."""

from __future__ import annotations

from typing import Any

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
