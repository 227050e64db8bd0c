"""Reading one response of an item through the task's own parser, for the reader tests."""

from __future__ import annotations

from typing import Any

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing import Invalid, Parsed


def value(item: dict[str, Any], text: str) -> Any:
    """The parsed value of ``text`` (the test fails, naming it, when it is invalid)."""
    r = parse_response(item, text)
    assert isinstance(r, Parsed), (text, r)
    return r.value


def invalid(item: dict[str, Any], text: str) -> bool:
    """Whether the item's parser finds ``text`` invalid."""
    return isinstance(parse_response(item, text), Invalid)
