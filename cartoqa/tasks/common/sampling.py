"""Slot sampling: which candidate a slot's attempt takes, in a seeded order."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from cartoqa.tasks.common.base import slot_rng

T = TypeVar("T")


def permuted(values: Sequence[Any], seed: int, *parts: object) -> list[Any]:
    """A seeded permutation of ``values`` (stable for the same seed and parts)."""
    out = list(values)
    slot_rng(seed, "perm", *parts).shuffle(out)
    return out


def pick(candidates: Sequence[Any], slot: int, attempt: int, n_slots: int, *,
         wrap: bool = False) -> Any | None:
    """Candidate for a slot's attempt: slots take disjoint stretches of the candidates.

    Attempt ``a`` of slot ``s`` takes candidate ``s + a * n_slots``, so no two slots
    share a candidate. Past the end, ``None`` (the extract has run out: the slot cannot
    be filled), or with ``wrap`` the sequence starts again (for tasks where a
    candidate is only a starting point, such as a route's origin).

    Examples
    --------
    >>> pick(list(range(100)), 3, 0, 10), pick(list(range(100)), 3, 1, 10)
    (3, 13)
    >>> pick(list(range(12)), 3, 1, 10) is None
    True
    >>> pick(list(range(12)), 3, 1, 10, wrap=True)
    1
    """
    index = slot + attempt * max(1, n_slots)
    if index < len(candidates):
        return candidates[index]
    return candidates[index % len(candidates)] if wrap and candidates else None


def pick_round(candidates: Sequence[Any], slot: int, attempt: int, n_slots: int, *,
               max_attempts: int) -> tuple[Any, int, int]:
    """Like :func:`pick` with ``wrap``, also saying which pass over the candidates it is.

    Returns ``(candidate, round, rounds)``: a candidate taken again in a later round
    must be used differently (e.g. a route origin with destinations ``round::rounds``
    of its sorted targets), so that no two slots make the same scenario.

    Examples
    --------
    >>> pick_round(list(range(12)), 3, 0, 10, max_attempts=3)
    (3, 0, 4)
    >>> pick_round(list(range(12)), 3, 1, 10, max_attempts=3)
    (1, 1, 4)
    """
    index = slot + attempt * max(1, n_slots)
    total = max(1, n_slots) * (max_attempts + 1)
    rounds = max(1, -(-total // len(candidates)))
    return candidates[index % len(candidates)], index // len(candidates), rounds


def least_given(values: Iterable[T], tallies: Sequence[Mapping[T, int]],
                tie: Callable[[T], float]) -> T:
    """The value given least so far: the first tally decides, each later one breaks the
    earlier's ties, then ``tie`` (called once per value, in order, as :func:`min` does).

    The one rule of every answer quota that places answers one at a time (FRIEDA's
    counts, categories, letters and directions,
    :func:`cartoqa.tasks.frieda.answer_quota.balance_answers`; the legend windows of
    :func:`cartoqa.tasks.frieda.legend_questions.legend_pick_plans`), so that a blind
    guess of any one answer stays near chance.

    Parameters
    ----------
    values : iterable
        The answers that can be given (not empty).
    tallies : sequence of mapping
        How often each answer was given so far; a value missing from one counts 0.
    tie : callable
        A value's tie-break key (a seeded draw or a fixed order).

    Returns
    -------
    object
        The value with the smallest ``(tally_1, tally_2, ..., tie)``.

    Examples
    --------
    >>> least_given(["north", "east", "west"], [{"north": 1}], {"east": 0.7, "west": 0.2}.get)
    'west'
    >>> least_given(["north", "east", "west"], [{"north": 1}, {"west": 1}],
    ...             {"east": 0.7, "west": 0.2}.get)
    'east'
    """
    return min(values, key=lambda v: (*(t.get(v, 0) for t in tallies), tie(v)))


def choose_by_answer(rng: random.Random, options: Sequence[T],
                     answer_of: Callable[[T], Hashable], *,
                     weight: Callable[[Any], float] | None = None) -> T:
    """One of ``options``, drawn so that each distinct answer they give is as likely.

    Draws an answer uniformly among those the options give, then an option giving it:
    a question whose valid candidates mostly share one answer (a count of 1, say) asks
    the rarer answers as often as that one, instead of repeating the common answer
    (issue 29: a blind guess of the usual answer then scores no more than chance).
    With ``weight``, answer ``a`` is drawn with weight ``weight(a)`` instead (answers
    that few scenarios can give at all made more likely where one can, so that they
    are as common over a whole build).

    Parameters
    ----------
    rng : random.Random
        Seeded.
    options : sequence
        The valid candidates (not empty), in a deterministic order.
    answer_of : callable
        The answer a candidate gives.

    Returns
    -------
    object
        The candidate chosen.

    Examples
    --------
    >>> counts = [1] * 9 + [3]
    >>> picks = [choose_by_answer(random.Random(s), counts, lambda c: c) for s in range(400)]
    >>> round(picks.count(3) / 400, 1)
    0.5

    Weighted by the square of the count, 3 is asked nine times as often as 1:

    >>> picks = [choose_by_answer(random.Random(s), counts, lambda c: c,
    ...                           weight=lambda c: c * c) for s in range(400)]
    >>> round(picks.count(3) / 400, 1)
    0.9
    """
    groups: dict[Hashable, list[T]] = {}
    for option in options:
        groups.setdefault(answer_of(option), []).append(option)
    answers = sorted(groups, key=repr)
    if weight is None:
        return rng.choice(groups[rng.choice(answers)])
    chosen = rng.choices(answers, weights=[float(weight(a)) for a in answers])[0]
    return rng.choice(groups[chosen])


def choose_count(rng: random.Random, options: Sequence[T], count_of: Callable[[T], int],
                 *, zero_share: float) -> T | None:
    """One of ``options`` for a count question that should seldom answer 0.

    Where some option gives a count above 0, a count is drawn uniformly among those
    (:func:`choose_by_answer` over the options that give one), so 0 is never asked on
    such a map. Where every option gives 0, one is returned on a share ``zero_share``
    of the draws and ``None`` otherwise (the question is not asked: the caller counts
    it). A blind "0" then scores about ``zero_share`` times the share of maps that
    give only 0 (issue 29: MapWise's neighbour and part counts answered 0 on 33 of 75
    items, every valid region of many maps giving 0).

    Examples
    --------
    >>> choose_count(random.Random(0), [0, 0, 2, 3, 3], lambda c: c, zero_share=0.25) > 0
    True
    >>> picks = [choose_count(random.Random(s), [0, 0], lambda c: c, zero_share=0.25)
    ...          for s in range(400)]
    >>> 0.18 < picks.count(0) / 400 < 0.32, picks.count(None) + picks.count(0)
    (True, 400)
    """
    above = [o for o in options if count_of(o) > 0]
    if above:
        return choose_by_answer(rng, above, count_of)
    if options and rng.random() < zero_share:
        return rng.choice(list(options))
    return None
