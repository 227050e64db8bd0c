"""Ground-truth answers as text, for the ``answer`` columns of exports."""

from __future__ import annotations

import json
from typing import Any


def plain_answer(item: dict[str, Any]) -> str:
    """Render an item's ground-truth answer as a bare value, for ``answer`` columns.

    Unlike :func:`cartoqa.scoring.answer_as_text` (a full model-style response), this
    is the value alone, as benchmark tables hold it.

    Parameters
    ----------
    item : dict
        One item.

    Returns
    -------
    str
        E.g. ``"C"``, ``"yes"``, ``"3"``, ``"523.4 m"``, names joined by ``", "``,
        JSON for MTMF types and SRN steps.

    Examples
    --------
    >>> plain_answer({"request": "roads", "answer": {"roads": ["A St", "B Rd"]}})
    'A St, B Rd'
    """
    answer = item.get("answer") or {}
    request = item.get("request")
    if request == "choice":
        return str(answer["letter"])
    if request == "presence":
        return "yes" if answer["present"] else "no"
    if request == "count":
        return str(answer["count"])
    if request == "names":
        return ", ".join(answer["names"])
    if request == "all":
        return json.dumps(answer["types"], ensure_ascii=False)
    if request == "length":
        return f"{answer['value']} {answer['unit']}"
    if request == "roads":
        return ", ".join(answer["roads"])
    if request == "route":
        return json.dumps(answer["steps"], ensure_ascii=False)
    return json.dumps(answer, ensure_ascii=False)
