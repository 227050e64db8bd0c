"""Pick the parser for an item: :func:`parse_response`.

Each task declares the parser of each of its requests (``RequestSpec.parse`` in its
``SPEC``, see :mod:`cartoqa.declarations.spec`); this module looks it up when it runs, so that
the parsers do not depend on the task modules when they are imported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cartoqa.declarations.registry import request_spec, task_specs
from cartoqa.parsing.result import Invalid, ParseResult

Item = Mapping[str, Any]


def parsers() -> dict[tuple[str, str], Callable[[Item, str], ParseResult]]:
    """Return the parser of every declared ``(task, request)``.

    Returns
    -------
    dict
        ``(task, request) -> parse(item, text)``, from the task declarations.

    Examples
    --------
    >>> ("stmf", "count") in parsers() and ("mml", "roads") in parsers()
    True
    """
    return {(t.name, r.name): r.parse for t in task_specs() for r in t.requests}


def parse_response(item: Item, text: str | None) -> ParseResult:
    """Parse a model's raw response to an item into the item's answer shape.

    Parameters
    ----------
    item : mapping
        The item (one line of ``items.jsonl``); its ``task`` and ``request`` choose the
        parser, and its ``options``, answer ``unit`` or answer ``types`` guide it.
    text : str or None
        The raw response; ``None`` (no prediction) is invalid.

    Returns
    -------
    Parsed or Invalid
        The structured answer or the reason it could not be read. Never raises on any
        text.

    Examples
    --------
    >>> parse_response({"task": "stmf", "request": "count"}, "Answer: 4").value
    {'count': 4}
    """
    if text is None:
        return Invalid("no prediction for this item")
    if not isinstance(text, str):
        return Invalid("response is not text")
    key = (str(item.get("task")), str(item.get("request")))
    found = request_spec(*key)
    if found is None:
        return Invalid(f"no parser for task {key[0]!r} request {key[1]!r}")
    return found[1].parse(item, text)
