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


def mtmf_item(types: list[str]) -> dict[str, Any]:
    """An MTMF item asking about ``types`` (its answer gives the parser the type list)."""
    return {"task": "mtmf", "request": "all",
            "answer": {"types": {t: {"count": 0, "names": []} for t in types}}}


def stmf_names_item(feature_type: str) -> dict[str, Any]:
    """An STMF names item about one feature type."""
    return {"task": "stmf", "request": "names", "strata": {"feature_type": feature_type}}
