"""Write an item's own answer as a model would (:func:`answer_as_text`), as its task declares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cartoqa.declarations.registry import request_spec


def answer_as_text(item: Mapping[str, Any]) -> str:
    """Write the item's own answer the way a model would, in the format its prompt asks.

    Scoring this text gives a perfect score, which makes it the reference response for
    tests (and for a stand-in model server). Each task declares how its requests'
    answers are written (``RequestSpec.answer_text``, see :mod:`cartoqa.declarations.spec`).

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
    task, request = item.get("task"), item.get("request")
    found = request_spec(str(task), str(request))
    if found is None:
        raise ValueError(f"unknown task {task!r} request {request!r}")
    return found[1].answer_text(item.get("answer") or {})
