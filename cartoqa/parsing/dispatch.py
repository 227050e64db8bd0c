"""Pick the parser for an item: :func:`parse_response`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cartoqa.parsing.choice import parse_choice
from cartoqa.parsing.lists import parse_names, parse_roads
from cartoqa.parsing.mapiq import mapiq_parser
from cartoqa.parsing.mapwise import mapwise_parser
from cartoqa.parsing.multi import parse_multi
from cartoqa.parsing.numbers import parse_count, parse_length
from cartoqa.parsing.result import Invalid, ParseResult
from cartoqa.parsing.route import parse_route
from cartoqa.parsing.yesno import parse_yes_no
from cartoqa.tasks.mapiq import TASKS as MAPIQ_TASKS
from cartoqa.tasks.mapwise import TASKS as MAPWISE_TASKS

Item = Mapping[str, Any]


def _choice(item: Item, text: str) -> ParseResult:
    options = item.get("options")
    return parse_choice(text, options=options if isinstance(options, Mapping) else None)


def _length(item: Item, text: str) -> ParseResult:
    unit = str((item.get("answer") or {}).get("unit", "m"))
    return parse_length(text, unit=unit if unit in ("m", "ft") else "m")


def _multi(item: Item, text: str) -> ParseResult:
    types = list(((item.get("answer") or {}).get("types") or {}).keys())
    return parse_multi(text, types=types)


#: Parser per ``(task, request)``; see ``docs/dataset-format.md``.
PARSERS: dict[tuple[str, str], Callable[[Item, str], ParseResult]] = {
    ("mfs", "choice"): _choice,
    ("stmf", "presence"): lambda item, text: parse_yes_no(text),
    ("stmf", "count"): lambda item, text: parse_count(text),
    ("stmf", "names"): lambda item, text: parse_names(text),
    ("mtmf", "all"): _multi,
    ("rle", "length"): _length,
    ("mml", "roads"): lambda item, text: parse_roads(text),
    ("srn", "route"): lambda item, text: parse_route(text),
}
# MapIQ: one parser per question type, for every task its declaration lists.
PARSERS.update({(spec.name, request): mapiq_parser(request)
                for spec in MAPIQ_TASKS.values() for request in spec.requests})
PARSERS.update({(spec.name, request): mapwise_parser(request)
                for spec in MAPWISE_TASKS.values() for request in spec.requests})


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
    parser = PARSERS.get(key)
    if parser is None:
        return Invalid(f"no parser for task {key[0]!r} request {key[1]!r}")
    return parser(item, text)
