"""FRIEDA's scoring: textual, distance and cardinal answers, and accuracy by stratum.

The rules of the paper (Pyo et al., ICLR 2026): a **distance** is correct when its
absolute percentage error is at most :data:`DISTANCE_TOLERANCE` (20%) after
unit-aware parsing (m, km, ft, mi, …: :func:`cartoqa.parsing.numbers.parse_length`);
a **cardinal** direction is correct when it is the true one of eight or one of its
two neighbours; a **count** (how many features satisfy a relation) is correct when it
equals the true number; a **textual** answer (names, ``;``-separated lists, yes/no) is
correct when the set of names, normalised by
:func:`cartoqa.parsing.names.normalise_name`, equals the true set (the paper uses an
LLM judge for this; exact matching after normalisation is the deterministic stand-in).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from cartoqa.parsing.cardinal import DIRECTIONS, parse_cardinal
from cartoqa.parsing.names import normalise_name
from cartoqa.parsing.numbers import METRES_PER_UNIT, parse_count, parse_length
from cartoqa.parsing.result import Invalid, ParseResult
from cartoqa.parsing.textual import parse_textual
from cartoqa.parsing.yesno import parse_yes_no

#: Largest absolute percentage error of a correct distance.
DISTANCE_TOLERANCE = 0.20

#: FRIEDA's answer types.
ANSWER_TYPES: tuple[str, ...] = ("textual", "distance", "cardinal", "count")


def distance_correct(truth_m: float, predicted_m: float, *, tolerance: float = DISTANCE_TOLERANCE
                     ) -> bool:
    """Whether a distance is within ``tolerance`` (relative) of the truth.

    Parameters
    ----------
    truth_m, predicted_m : float
        Metres.
    tolerance : float, optional
        Largest ``|predicted - truth| / truth``.

    Returns
    -------
    bool

    Examples
    --------
    >>> distance_correct(500.0, 600.0), distance_correct(500.0, 600.1)
    (True, False)
    """
    if truth_m <= 0:
        raise ValueError("a true distance must be positive")
    return abs(predicted_m - truth_m) <= tolerance * truth_m + 1e-9


def cardinal_correct(truth: str, predicted: str) -> bool:
    """Whether a direction is the true one or one of its two neighbours of eight.

    Parameters
    ----------
    truth, predicted : str
        Directions of :data:`cartoqa.parsing.cardinal.DIRECTIONS`.

    Returns
    -------
    bool

    Examples
    --------
    >>> cardinal_correct("north", "north-west"), cardinal_correct("north", "west")
    (True, False)
    """
    gap = (DIRECTIONS.index(truth) - DIRECTIONS.index(predicted)) % 8
    return gap in (0, 1, 7)


def textual_correct(truth: Sequence[str], predicted: Sequence[str]) -> bool:
    """Whether two lists name the same things (as sets, after name normalisation).

    Parameters
    ----------
    truth, predicted : sequence of str
        Names (one name is a list of one).

    Returns
    -------
    bool

    Examples
    --------
    >>> textual_correct(["Alpha Park", "Beta Park"], ["beta park", "ALPHA PARK"])
    True
    >>> textual_correct(["Alpha Park"], ["Alpha Park", "Beta Park"])
    False
    """
    return {normalise_name(n) for n in truth} == {normalise_name(n) for n in predicted}


def parse_frieda(answer: Mapping[str, Any], text: str | None, *, question: str = "",
                 map_names: Collection[str] = frozenset()) -> ParseResult:
    """Parse a response in the shape of a FRIEDA item's answer.

    Parameters
    ----------
    answer : mapping
        The item's ``answer``: ``{"type": "distance", "meters": ...}``,
        ``{"type": "cardinal", "direction": ...}``, ``{"type": "textual", "names": [...]}``,
        ``{"type": "count", "count": n}`` or ``{"type": "textual", "yes": bool}``.
    text : str or None
        The raw response.
    question : str, optional
        The item's question: options it names (``Area A``/``Area B``) may be answered
        by letter or text (:func:`cartoqa.parsing.textual.parse_textual`).
    map_names : collection of str, optional
        Normalised names the maps' legends write: they tell two names joined by ``and``
        from one name (:func:`cartoqa.parsing.map_names.item_map_names`).

    Returns
    -------
    Parsed or Invalid
    """
    if text is None or not text.strip():
        return Invalid("empty response")
    kind = answer["type"]
    if kind == "distance":
        # a bare number is read in the unit the map's scale bar shows (``unit``)
        return parse_length(text, unit=str(answer.get("unit") or "m"))
    if kind == "cardinal":
        return parse_cardinal(text)
    if kind == "count":
        return parse_count(text)
    if "yes" in answer:
        return parse_yes_no(text)
    return parse_textual(text, question=question, map_names=map_names)


def frieda_correct(answer: Mapping[str, Any], parsed: ParseResult) -> bool:
    """Whether a parsed response is correct by FRIEDA's rules (invalid is wrong).

    Parameters
    ----------
    answer : mapping
        The item's ``answer`` (see :func:`parse_frieda`).
    parsed : Parsed or Invalid
        From :func:`parse_frieda`.

    Returns
    -------
    bool

    Examples
    --------
    >>> a = {"type": "distance", "meters": 400.0}
    >>> frieda_correct(a, parse_frieda(a, "About 0.45 km"))
    True
    >>> b = {"type": "distance", "meters": 400.0, "unit": "ft"}  # a map in feet
    >>> [frieda_correct(x, parse_frieda(x, "Answer: 1300")) for x in (b, a)]
    [True, False]
    """
    if isinstance(parsed, Invalid):
        return False
    value = parsed.value
    kind = answer["type"]
    if kind == "distance":
        meters = float(value["value"]) * METRES_PER_UNIT[str(value.get("unit") or "m")]
        return distance_correct(float(answer["meters"]), meters)
    if kind == "cardinal":
        return cardinal_correct(answer["direction"], value["direction"])
    if kind == "count":
        return float(value["count"]) == float(answer["count"])
    if "yes" in answer:
        return bool(value["present"]) == bool(answer["yes"])
    return textual_correct(answer["names"], value["names"])


def accuracy_by_stratum(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """FRIEDA's accuracy overall and per relation, map count, setting and answer type.

    Parameters
    ----------
    records : iterable of mapping
        One per scored item: ``correct`` (bool), ``relation``, ``maps`` (``"single"``
        or ``"multi"``), ``setting`` (``"direct"`` or ``"contextual"``), ``type``.

    Returns
    -------
    dict
        ``{"overall": {"all": acc}, "relation": {...}, "maps": {...}, "setting": {...},
        "type": {...}}``, each value the share of correct items.

    Examples
    --------
    >>> accuracy_by_stratum([
    ...     {"correct": True, "relation": "border", "maps": "single", "setting": "direct",
    ...      "type": "textual"},
    ...     {"correct": False, "relation": "distance", "maps": "multi",
    ...      "setting": "direct", "type": "distance"}])["relation"]
    {'border': 1.0, 'distance': 0.0}
    """
    groups: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        ok = bool(r["correct"])
        groups["overall"]["all"].append(ok)
        for key in ("relation", "maps", "setting", "type"):
            groups[key][str(r[key])].append(ok)
    return {
        key: {k: sum(v) / len(v) for k, v in sorted(by.items())} for key, by in groups.items()
    }
