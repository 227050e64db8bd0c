"""Paper-compatible scoring conventions: ``cartoqa score --convention cartoqa|mapwise|frieda``.

cartoqa reads every response by one set of rules (:mod:`cartoqa.parsing.rules`) and
scores it by its suite's metric. To report numbers comparable to a published paper, a
user may score by that paper's own conventions instead; they change only the items of
that paper's suite (other items are scored the cartoqa way, and the report says so):

``mapwise`` (Mukhopadhyay et al. 2025, §4; the released repository
map-wise/mapwise-dataset holds data only, no scorer, so these follow the paper's text)
    - **range**: a single value that equals one bound of the true range is an
      overlapping answer and gets the paper's partial score 0.5 (cartoqa: 0, a single
      value is not the range asked for);
    - **rank**: the ranking is flattened: regions take the positions they are written
      in, ``=`` ties are ignored (cartoqa keeps ties as equal ranks, which Kendall's
      tau-b scores as ties).

``frieda`` (Pyo et al. 2026; the released scorer knowledge-computing/FRIEDA
``frieda/evaluate.py`` and the generation scripts' ``response.split("Final answer:")``)
    - **answer**: the text after the last literal ``Final answer:`` (case-sensitive), or
      the whole response when there is none; no other cue, no hedge or correction
      handling;
    - **textual**: split on ``;``, each part lower-cased with every character other than
      ``a-z0-9`` removed, compared as sets with the true names normalised the same way
      (the release's exact-match stage; its LLM judge for mismatches is not run, so a
      mismatch is wrong);
    - **distance**: the first number (``\\d+\\.?\\d*``) of the answer, taken in the unit
      the question asks in (the item's ``unit``, the scale bar's: m, km, ft or mi; the
      release does not convert units), within 20% of the truth in that unit;
    - **count**: like textual, against the count written as digits (``2``);
    - **cardinal**: the whole answer, lower-cased without spaces and hyphens, must be the
      true direction or one of its two neighbours (``NE`` or ``north-east of B`` is
      wrong);
    - nothing is invalid but a missing or empty response: an answer the release cannot
      read is wrong (a valid answer with ``correct`` false).

``cartoqa`` (the default) is documented in docs/scoring.md; docs/scoring.md also sets the
three side by side and says why the default differs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cartoqa.declarations.records import Record
from cartoqa.metrics.frieda import DISTANCE_TOLERANCE
from cartoqa.metrics.mapwise import RANGE_RTOL, range_score, rank_score
from cartoqa.parsing import Invalid, Parsed, ParseResult
from cartoqa.parsing.cardinal import DIRECTIONS
from cartoqa.parsing.numbers import METRES_PER_UNIT

#: The conventions, with one line each for the report.
CONVENTIONS: dict[str, str] = {
    "cartoqa": "cartoqa's rules for every suite (docs/scoring.md)",
    "mapwise": "MapWise items by the MapWise paper's conventions (a single value equal to "
               "a range bound scores 0.5; rankings flattened to their written order); "
               "other suites by cartoqa's",
    "frieda": "FRIEDA items by the released FRIEDA scorer's conventions (text after the "
              "last 'Final answer:', ';' lists, alphanumeric exact match, first number, "
              "direction or a neighbour, no LLM judge); other suites by cartoqa's",
}

#: The suite each paper convention applies to.
SUITE_OF: dict[str, str] = {"mapwise": "mapwise", "frieda": "frieda"}

_FIRST_NUMBER = re.compile(r"\d+\.?\d*")


def item_suite(item: Mapping[str, Any]) -> str:
    """The suite of an item, from its task name (``mapwise_rank`` -> ``mapwise``).

    Examples
    --------
    >>> item_suite({"task": "frieda_equal"}), item_suite({"task": "stmf"})
    ('frieda', 'cartomapqa')
    """
    task = str(item.get("task") or "")
    for suite in ("mapiq", "mapwise", "frieda"):
        if task.startswith(suite + "_"):
            return suite
    return "cartomapqa"


def applies(convention: str, item: Mapping[str, Any]) -> bool:
    """Whether a paper convention scores this item (its own suite only)."""
    return SUITE_OF.get(convention) == item_suite(item)


# ------------------------------------------------------------------------ MapWise
def flatten_ranks(ranks: Mapping[str, int]) -> dict[str, int]:
    """MapWise's flattening: positions in written order, ties ignored.

    Examples
    --------
    >>> flatten_ranks({"MH": 1, "UP": 2, "TN": 2, "GA": 4})
    {'MH': 1, 'UP': 2, 'TN': 3, 'GA': 4}
    """
    return {code: i for i, code in enumerate(ranks, start=1)}


def mapwise_range_score(truth: list[float], predicted: list[float], continuous: bool) -> float:
    """cartoqa's range score, with MapWise's half credit for one value equal to a bound.

    Examples
    --------
    >>> mapwise_range_score([412, 530], [412, 412], False)
    0.5
    >>> mapwise_range_score([412, 530], [412, 530], False)
    1.0
    >>> mapwise_range_score([1350, 1350], [1350, 1350], False)  # a one-value class, exact
    1.0
    """
    exact = range_score(truth, predicted, continuous)
    if exact == 1.0:  # the half credit is for an overlapping answer, never an exact one
        return exact
    lo, hi = sorted(predicted)
    if abs(hi - lo) <= RANGE_RTOL * max(1.0, abs(hi)) and any(
            abs(lo - b) <= RANGE_RTOL * max(1.0, abs(b)) for b in truth):
        return 0.5
    return exact


def mapwise_measures(record: Record) -> dict[str, Any] | None:
    """The measures of a MapWise record under the paper's conventions (``None``: as
    cartoqa's)."""
    request = record.item.get("request")
    if not record.valid:
        return None
    if request == "range":
        truth = [float(x) for x in record.answer.get("range") or []]
        return {"range_score": mapwise_range_score(truth, list(record.value["range"]),
                                                   bool(record.answer.get("continuous")))}
    if request == "rank":
        levels = {k: float(v) for k, v in (record.answer.get("levels") or {}).items()}
        flat = flatten_ranks(record.value["ranks"])
        ranks = {k: float(v) for k, v in flat.items() if k in levels}
        return {"tau_b": rank_score(levels, ranks)}
    return None


# ------------------------------------------------------------------------ FRIEDA
def frieda_answer_part(text: str) -> str:
    """The released FRIEDA scripts' answer: after the last ``Final answer:``, stripped.

    Examples
    --------
    >>> frieda_answer_part("reasoning... Final answer: Area B")
    'Area B'
    >>> frieda_answer_part("Answer: B")
    'Answer: B'
    """
    return text.split("Final answer:")[-1].strip()


def frieda_normalise(text: str) -> str:
    """The released FRIEDA scorer's normalisation: lower case, only ``a-z0-9`` kept.

    Examples
    --------
    >>> frieda_normalise(" Kaisaniemen puisto! "), frieda_normalise("Töölönlahti")
    ('kaisaniemenpuisto', 'tlnlahti')
    """
    return re.sub(r"[^a-zA-Z0-9]+", "", text.strip().lower())


def frieda_record(item: Mapping[str, Any], text: str | None) -> Record:
    """A FRIEDA item scored by the released FRIEDA scorer's conventions.

    Examples
    --------
    >>> r = frieda_record({"answer": {"type": "textual", "names": ["B"]}}, "Final answer: Area B")
    >>> r.measures, r.value
    ({'correct': False}, {'names': ['areab']})
    >>> frieda_record({"answer": {"type": "cardinal", "direction": "north"}},
    ...               "Final answer: N").measures
    {'correct': False}
    >>> frieda_record({"answer": {"type": "cardinal", "direction": "north"}},
    ...               "Final answer: North West").measures
    {'correct': True}
    >>> frieda_record({"answer": {"type": "count", "count": 2}}, "Final answer: 2").measures
    {'correct': True}
    >>> feet = {"answer": {"type": "distance", "meters": 304.8, "unit": "ft"}}
    >>> frieda_record(feet, "Final answer: 1000 ft").measures, frieda_record(
    ...     feet, "Final answer: 305 m").measures
    ({'correct': True}, {'correct': False})
    """
    answer = item.get("answer") if isinstance(item.get("answer"), Mapping) else {}
    assert isinstance(answer, Mapping)
    if text is None or not str(text).strip():
        return Record(item, Invalid("no prediction for this item"))
    part = frieda_answer_part(str(text))
    kind = answer.get("type")
    result: ParseResult
    if kind == "distance":
        m = _FIRST_NUMBER.search(part)
        if m is None:  # the release scores it 0: a wrong answer, not an invalid one
            return Record(item, Parsed({"answer": part}, ("no number",)), {"correct": False})
        value = float(m.group())
        unit = str(answer.get("unit") or "m")  # the unit the question asks in
        truth = float(answer["meters"]) / METRES_PER_UNIT[unit]
        result = Parsed({"value": value, "unit": unit, "raw_value": value, "raw_unit": unit},
                        ("FRIEDA convention: first number, in the unit asked, no conversion",))
        return Record(item, result,
                      {"correct": abs(value - truth) <= DISTANCE_TOLERANCE * truth + 1e-9})
    if kind == "cardinal":
        key = frieda_normalise(part)
        names = {frieda_normalise(d): d for d in DIRECTIONS}
        if key not in names:
            return Record(item, Parsed({"answer": part}, ("not one of the eight directions",)),
                          {"correct": False})
        got = names[key]
        truth_i = DIRECTIONS.index(str(answer["direction"]))
        ok = (DIRECTIONS.index(got) - truth_i) % 8 in (0, 1, 7)
        return Record(item, Parsed({"direction": got}), {"correct": ok})
    predicted = [n for n in (frieda_normalise(p) for p in part.split(";")) if n]
    truth_names = {frieda_normalise(str(n)) for n in answer.get("names") or []}
    if kind == "count":  # the release's exact match on the expected text, e.g. "2"
        truth_names = {str(int(answer["count"]))}
    if "yes" in answer:
        ok = set(predicted) == {"yes" if answer["yes"] else "no"}
    else:
        ok = set(predicted) == truth_names
    return Record(item, Parsed({"names": predicted}), {"correct": ok})


def convention_record(item: Mapping[str, Any], text: str | None, convention: str,
                      cartoqa_record: Record) -> Record:
    """The record of one item under a convention (``cartoqa_record`` when it does not
    apply to the item).

    Parameters
    ----------
    item : mapping
        The dataset item.
    text : str or None
        The raw response.
    convention : str
        A key of :data:`CONVENTIONS`.
    cartoqa_record : Record
        The item scored by cartoqa's rules.

    Returns
    -------
    Record
    """
    if convention not in CONVENTIONS:
        raise ValueError(f"unknown convention {convention!r}")
    if not applies(convention, item):
        return cartoqa_record
    if convention == "frieda":
        return frieda_record(item, text)
    measures = mapwise_measures(cartoqa_record)
    if measures is None:
        return cartoqa_record
    return Record(cartoqa_record.item, cartoqa_record.result, measures)
