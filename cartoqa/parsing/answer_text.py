"""Render an item's ground-truth answer as a model-style response."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cartoqa.parsing.mapiq import mapiq_answer_text
from cartoqa.parsing.mapwise import mapwise_answer_text


def _fmt_number(value: float) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def answer_as_text(item: Mapping[str, Any]) -> str:
    """Write the item's own answer the way a model would, in the format its prompt asks.

    Scoring this text gives a perfect score, which makes it the reference response for
    tests (and for a stand-in model server).

    Parameters
    ----------
    item : mapping
        An item from ``items.jsonl``.

    Returns
    -------
    str
        The response text, e.g. ``"Answer: C"``, ``"Yes"``, ``"523.4 m"``, a bulleted
        list of names, a fenced JSON object (MTMF) or a JSON route list (SRN).

    Raises
    ------
    ValueError
        When the item's task or request is unknown.

    Examples
    --------
    >>> answer_as_text({"task": "rle", "request": "length",
    ...                 "answer": {"value": 12.5, "unit": "ft"}})
    'Answer: 12.5 ft'
    """
    task, request, answer = item.get("task"), item.get("request"), item.get("answer") or {}
    if str(task).startswith("mapiq_"):
        return mapiq_answer_text(item)
    if str(task).startswith("mapwise_"):
        return mapwise_answer_text(item)
    if task == "mfs":
        return f"Answer: {answer['letter']}"
    if task == "stmf" and request == "presence":
        return "Yes" if answer["present"] else "No"
    if task == "stmf" and request == "count":
        return f"Answer: {_fmt_number(answer['count'])}"
    if task == "stmf" and request == "names":
        names = list(answer.get("names") or [])
        return "\n".join(f"- {n}" for n in names) if names else "None"
    if task == "mtmf":
        body = {
            name: {"count": entry.get("count", 0), "names": list(entry.get("names") or [])}
            for name, entry in (answer.get("types") or {}).items()
        }
        return "```json\n" + json.dumps(body, ensure_ascii=False, indent=1) + "\n```"
    if task == "rle":
        return f"Answer: {_fmt_number(answer['value'])} {answer.get('unit', 'm')}"
    if task == "mml":
        return "\n".join(f"- {n}" for n in answer["roads"])
    if task == "srn":
        return json.dumps(list(answer["steps"]), ensure_ascii=False)
    raise ValueError(f"unknown task {task!r} request {request!r}")
