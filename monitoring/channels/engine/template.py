"""The generic webhook's body: a JSON template whose {{field}} places take the event's values.

Values are put in JSON-escaped, so a template stays valid JSON whatever an alert's text holds:
`{"text": "{{headline}}"}` gets `{"text": "DANGER: Pool \"tank\" is DEGRADED"}`.
"""

from __future__ import annotations

import json
import re

PLACE = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
DEFAULT = (
    '{"title": "{{title}}", "text": "{{text}}", "level": "{{level}}", "state": "{{state}}", '
    '"host": "{{host}}", "key": "{{key}}", "raised_at": "{{raised_at}}", '
    '"cleared_at": "{{cleared_at}}", "link": "{{link}}"}'
)


class TemplateError(ValueError):
    """The template names an unknown field or does not make JSON."""


def render(template: str, values: dict[str, str]) -> str:
    """The template with each place replaced by its value, JSON-escaped without quotes."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            known = ", ".join(sorted(values))
            raise TemplateError(f"{{{{{name}}}}} is not an alert field; use one of: {known}.")
        return json.dumps(str(values[name]))[1:-1]

    return PLACE.sub(value, template)


def check(template: str, values: dict[str, str]) -> None:
    """Raise TemplateError unless the template makes a JSON object with these values."""
    try:
        body = json.loads(render(template, values))
    except json.JSONDecodeError as exc:
        raise TemplateError(
            f"The body is not JSON once filled in: {exc.msg} at {exc.pos}."
        ) from exc
    if not isinstance(body, dict | list):
        raise TemplateError("The body must be a JSON object or array.")
