"""Request body parsing that answers bad bodies with a 400, never a crash."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class SafeJSONParser(JSONParser):
    """JSON whose nesting is too deep for Python's decoder is refused, not a server error."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        """Parse like DRF, turning the decoder's RecursionError into a ParseError."""
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError("JSON parse error - nested too deeply.") from exc
