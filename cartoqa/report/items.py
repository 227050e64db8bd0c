"""What the report shows of one item: its images, its answer as text, and outcomes.

Pure functions over items (``docs/dataset-format.md``) and the per-item rows of a
score report (``cartoqa.scoring.score_dataset(..., include_items=True)``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from cartoqa.dataset.reader import item_images  # noqa: F401  (re-exported)

Outcome = Literal["correct", "wrong", "invalid"]

#: The outcomes a report filters by, in display order.
OUTCOMES: tuple[Outcome, ...] = ("correct", "wrong", "invalid")

#: An RLE answer within this relative error of the true length is shown as correct.
#: This is a display threshold of the report only; RLE is scored by its error metrics.
RLE_TOLERANCE_PCT = 10.0


def _number(value: Any) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isfinite(number) and number.is_integer():
        return str(int(number))
    return f"{number:.6g}"


def _names(names: Sequence[Any]) -> str:
    return "\n".join(f"- {n}" for n in names) if names else "(none)"


def answer_text(item: Mapping[str, Any], value: Mapping[str, Any] | None) -> str:
    """An answer of an item (its truth, or a parsed response) as short readable text.

    Parameters
    ----------
    item : mapping
        The item; its ``task``, ``request`` and ``options`` decide the layout.
    value : mapping or None
        An answer in the item's answer shape (``item["answer"]`` or a parsed value).

    Returns
    -------
    str
        Plain text (one or several lines); unknown shapes are written as JSON.

    Examples
    --------
    >>> item = {"task": "mfs", "request": "choice", "options": {"C": "park"}}
    >>> answer_text(item, {"letter": "C"})
    'C (park)'
    >>> answer_text({"task": "srn", "request": "route"},
    ...             {"steps": ["blue", "turn left", "A", "red"]})
    'blue → turn left → A → red'
    >>> answer_text({"task": "rle", "request": "length"}, {"value": 523.4, "unit": "m"})
    '523.4 m'
    """
    if not value:
        return ""
    task, request = item.get("task"), item.get("request")
    try:
        if task == "mfs" and "letter" in value:
            options = item.get("options") or {}
            letter = str(value["letter"])
            label = options.get(letter) if isinstance(options, Mapping) else None
            return f"{letter} ({label})" if label else letter
        if task == "stmf" and request == "presence":
            return "yes" if value["present"] else "no"
        if task == "stmf" and request == "count":
            return _number(value["count"])
        if task == "stmf" and request == "names":
            text = _names(list(value.get("names") or []))
            unnamed = value.get("unnamed")
            return text + (f"\n(+ {unnamed} without a legible name)" if unnamed else "")
        if task == "mtmf":
            types = value.get("types") or {}
            lines, zero = [], 0
            for name, entry in types.items():
                entry = entry if isinstance(entry, Mapping) else {}
                count = entry.get("count", 0) or 0
                names = list(entry.get("names") or [])
                if not count and not names:
                    zero += 1
                    continue
                lines.append(f"{name}: {_number(count)}" + (f" ({', '.join(map(str, names))})"
                                                            if names else ""))
            if zero:
                lines.append(f"({zero} other types: 0)")
            return "\n".join(lines) if lines else "(nothing)"
        if task == "rle":
            return f"{_number(value['value'])} {value.get('unit', '')}".strip()
        if task == "mml":
            return " / ".join(map(str, value["roads"])) or "(none)"
        if task == "srn":
            return " → ".join(map(str, value["steps"]))
    except (KeyError, TypeError, AttributeError):
        pass
    return json.dumps(value, ensure_ascii=False, indent=1)


def _fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    return f"{float(value):.{digits}f}"


def outcome(row: Mapping[str, Any]) -> tuple[Outcome, str]:
    """Whether a scored answer counts as correct, wrong or invalid, and why.

    The rule reads the per-item ``measures`` of the score report, whatever section
    produced them: a ``correct`` flag (MFS, STMF presence and count, MML), an ``exact``
    route (SRN), a relative length error within :data:`RLE_TOLERANCE_PCT` (RLE), or a
    perfect name F1 with, where counts are measured, no count error (STMF names, MTMF).

    Parameters
    ----------
    row : mapping
        One per-item row of a score report (``valid``, ``reason``, ``measures``).

    Returns
    -------
    tuple
        ``(outcome, why)``.

    Examples
    --------
    >>> outcome({"valid": False, "reason": "no option letter found"})
    ('invalid', 'no option letter found')
    >>> outcome({"valid": True, "measures": {"correct": True}})
    ('correct', 'matches the ground truth')
    >>> outcome({"valid": True, "measures": {"correct": False, "error": -2.0}})
    ('wrong', 'off by -2')
    >>> outcome({"valid": True, "measures": {"abs_pct_error": 12.5, "abs_error_m": 50.0}})
    ('wrong', '12.5 % off (50.0 m); correct within 10 %')
    """
    if not row.get("valid"):
        return "invalid", str(row.get("reason") or "could not be parsed")
    m = row.get("measures") or {}
    if "correct" in m:
        if m["correct"]:
            return "correct", "matches the ground truth"
        if "error" in m:
            return "wrong", f"off by {_number(m['error'])}"
        return "wrong", "does not match the ground truth"
    if "exact" in m:
        connected = {True: "connected", False: "not connected", None: "not checked"}.get(
            m.get("connected"), "not checked")
        detail = f"step accuracy {_fmt(m.get('step_accuracy'))}, connectivity {connected}"
        return ("correct", "the exact route") if m["exact"] else ("wrong", detail)
    if "abs_pct_error" in m:
        pct = m["abs_pct_error"]
        detail = f"{_fmt(pct, 1)} % off ({_fmt(m.get('abs_error_m'), 1)} m)"
        if pct is not None and float(pct) <= RLE_TOLERANCE_PCT:
            return "correct", f"{detail}; within {RLE_TOLERANCE_PCT:g} %"
        return "wrong", f"{detail}; correct within {RLE_TOLERANCE_PCT:g} %"
    if "f1" in m:
        detail = (f"precision {_fmt(m.get('precision'))}, recall {_fmt(m.get('recall'))}, "
                  f"F1 {_fmt(m.get('f1'))}")
        if "rmse" in m:
            detail = f"count RMSE {_fmt(m.get('rmse'))}, names {detail}"
        perfect = m.get("f1") == 1 and not m.get("rmse")
        return ("correct" if perfect else "wrong"), detail
    return "wrong", "no measure of correctness for this task"
