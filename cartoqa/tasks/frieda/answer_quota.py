"""FRIEDA answers drawn first, per slot (pure): counts and legend categories in turn.

The planners give counts and categories in turn over their own plan lists
(:mod:`cartoqa.tasks.frieda.legend_questions`), but a build does not take the plans in
list order: slot ``k`` tries its own indices ``k + attempt * step``
(:func:`cartoqa.tasks.frieda.build._candidates`), the legend and topological templates
are mixed between them, and a plan refused at render time is replaced by one far down
the list, where only the categories with many subjects are left. On Helsinki the
per-task-10 build answered 0 to 2 of 4 border and within counts and "commercial land"
to 4 of 8 ``area_category`` questions (issue 29, frieda27f).

:func:`balance_answers` puts the answer first: the plans of a balanced template
(:func:`balanced_template`) keep their places in the lists (a legend count may take
another legend count template's place, :func:`swap_group`), but which of them sits at
each place is chosen in the order the slots visit the places (every slot's first try,
then every slot's second, ...): a slot gets the answer given least so far (ties in a
seeded order; counts over every count template of the relation, since a constant "0"
is scored on all of them), and its later tries keep that answer while plans with it
last. Nothing else moves, so every plan is still used at most once, by one slot.
``same_area`` plans stay in place and take a letter the same way (A or B, the least
given; a slot's retries keep it): before, a slot's letter counted only the earlier slots
whose *first* plan asked ``same_area``, so the retries between two of them all took one
letter (a per-task-10 build: A, A, A of 4 same_area items).
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from collections.abc import Sequence

from cartoqa.tasks.common.sampling import least_given
from cartoqa.tasks.frieda.questions import LEGEND_TEMPLATES, QuestionPlan, with_area_letter

#: Templates whose answers a build takes in turn: every count, and the legend category
#: questions (``area_category``: which category is X's area; ``category_of``: within an
#: area of which category does X lie).
CATEGORY_TEMPLATES: frozenset[str] = frozenset({"area_category", "category_of"})
#: Templates whose plan gives any of these answers (``same_area``: the subject drawn as
#: Area A or Area B, :func:`~cartoqa.tasks.frieda.questions.with_area_letter`): the plan
#: stays in its place and takes the slot's letter.
LETTER_TEMPLATES: dict[str, tuple[str, ...]] = {"same_area": ("A", "B")}


#: Answer types balanced in every template that gives them: counts, and the eight
#: compass directions of ``orientation`` (``pair``, ``two_maps``, ``legend_pick``).
BALANCED_TYPES: frozenset[str] = frozenset({"count", "cardinal"})

#: The tie-break key of a count of 0 (the others draw theirs in ``[0, 1)``).
ZERO_LAST = 2.0


def balanced_template(plan: QuestionPlan) -> str | None:
    """The template a plan's answer is balanced over, or ``None`` (not balanced).

    Examples
    --------
    >>> balanced_template(QuestionPlan("within", "?", {"type": "count", "count": 0}, (),
    ...                                {"template": "area_count"}))
    'area_count'
    >>> balanced_template(QuestionPlan("within", "?", {"type": "textual", "names": ["X"]},
    ...                                (), {"template": "one"})) is None
    True
    """
    template = str(plan.meta.get("template", ""))
    if plan.answer.get("type") in BALANCED_TYPES or template in CATEGORY_TEMPLATES:
        return template
    return None


def balance_class(plan: QuestionPlan) -> str:
    """What a balanced plan's answers are counted over: its request for counts (every
    count template of a relation answers the same request, so a constant guess such as
    0 is scored on all of them), its template for the category questions.

    Examples
    --------
    >>> balance_class(QuestionPlan("within", "?", {"type": "count", "count": 0}, (),
    ...                            {"template": "area_count"}))
    'count'
    """
    if plan.answer.get("type") in BALANCED_TYPES:
        return str(plan.answer["type"])
    return str(plan.meta.get("template", ""))


def balance_tallies(plan: QuestionPlan) -> tuple[str, ...]:
    """The tallies a balanced plan's answer is counted in, the first deciding (each
    later one breaks the earlier's ties): counts pooled over the relation's count
    templates; directions per template first (the majority baseline learns one
    constant per template, and FRIEDA credits a neighbouring direction, so a template
    whose slots took every other direction of a pooled turn would let one constant
    score half), then pooled over the relation (a constant over every template); each
    category template on its own.

    Examples
    --------
    >>> balance_tallies(QuestionPlan("orientation", "?", {"type": "cardinal",
    ...                              "direction": "west"}, (), {"template": "pair"}))
    ('cardinal:pair', 'cardinal')
    """
    cls = balance_class(plan)
    if cls == "cardinal":
        return (f"cardinal:{plan.meta.get('template', '')}", cls)
    return (cls,)


def swap_group(plan: QuestionPlan) -> str:
    """The balanced templates whose plans may take each other's places: the count
    templates that read the legend (``area_count``, ``category_count``), those that do
    not (``count``), each category template on its own. (A place keeps its template
    when it has a plan with the answer wanted: ``area_count`` has few plans on Helsinki,
    three of them answering 0.)

    Examples
    --------
    >>> swap_group(QuestionPlan("within", "?", {"type": "count", "count": 0}, (),
    ...                         {"template": "category_count"}))
    'count:legend'
    """
    template = str(plan.meta.get("template", ""))
    if plan.answer.get("type") == "count":
        return "count:legend" if template in LEGEND_TEMPLATES else "count:drawn"
    return template


def answer_value(plan: QuestionPlan) -> str:
    """A plan's answer as one comparable value (the count, or the names).

    Examples
    --------
    >>> answer_value(QuestionPlan("within", "?", {"type": "count", "count": 2}, ()))
    '2'
    """
    a = plan.answer
    if a.get("type") == "cardinal":
        return json.dumps(a["direction"])
    return json.dumps(a["count"] if a.get("type") == "count" else a.get("names"))


def balance_answers(lists: Sequence[Sequence[QuestionPlan]],
                    visits: Sequence[tuple[int, int, int]], rng: random.Random
                    ) -> list[list[QuestionPlan]]:
    """The plan lists with each balanced template's plans placed answer first.

    Parameters
    ----------
    lists : sequence of sequence of QuestionPlan
        A relation's plan lists (one-map, two-map).
    visits : sequence of (list, index, slot)
        The places the slots try, in the order they try them: every slot's first try,
        then every slot's second, ...; a place past its list's end is skipped.
    rng : random.Random
        Seeded: the order in which a template's answers come when they are even.

    Returns
    -------
    list of list of QuestionPlan
        The same plans, each list holding the same templates at the same places. A
        place a slot visits holds, of its list's plans of that template not yet placed,
        one with the slot's answer (the template's least given answer when the slot
        first meets the template; kept for its later tries), the first in list order;
        places no slot visits keep the rest in list order.

    Examples
    --------
    Three slots, one list of count plans answering 0, 0, 0, 1, 2 in list order: the
    slots' first tries (places 0, 1, 2) get three different answers.

    >>> plans = [QuestionPlan("border", "?", {"type": "count", "count": n}, (),
    ...                       {"template": "count"}) for n in (0, 0, 0, 1, 2)]
    >>> out = balance_answers([plans], [(0, 0, 0), (0, 1, 1), (0, 2, 2)], random.Random(0))
    >>> sorted(p.answer["count"] for p in out[0][:3])
    [0, 1, 2]
    """
    out = [list(plans) for plans in lists]
    pools: dict[tuple[int, str], list[QuestionPlan]] = defaultdict(list)
    for li, plans in enumerate(lists):
        for p in plans:
            if balanced_template(p) is not None:
                pools[(li, swap_group(p))].append(p)
    value = {id(p): answer_value(p) for pool in pools.values() for p in pool}
    # counts pooled over the request (a constant "0" is scored on all of them), each
    # category template on its own
    given: dict[str, Counter[str]] = defaultdict(Counter)
    ties: dict[str, float] = {}
    targets: dict[tuple[int, str], str] = {}
    placed: set[tuple[int, int]] = set()
    for li, i, slot in visits:
        if i >= len(lists[li]) or (li, i) in placed:
            continue
        here = lists[li][i]
        letters = LETTER_TEMPLATES.get(str(here.meta.get("template", "")))
        if letters is not None:
            # the slot's letter, else the least given (its retries keep it)
            key = (slot, "letter")
            if key not in targets:
                tally = given["letter"]
                for v in letters:
                    ties.setdefault(v, rng.random())
                targets[key] = least_given(letters, [tally], ties.__getitem__)
                tally[targets[key]] += 1
            out[li][i] = with_area_letter(here, targets[key])
            placed.add((li, i))
            continue
        template = balanced_template(here)
        if template is None:
            continue
        group = swap_group(here)
        pool = pools[(li, group)]
        values = sorted({value[id(p)] for p in pool})
        for v in values:
            if v not in ties:
                # a count of 0 after the others when they are even: 0 is the text
                # prior's guess for every count (and the count the extract most often
                # allows), so it is asked only when it has been given least
                ties[v] = ZERO_LAST if v == "0" else rng.random()
        want = targets.get((slot, group))
        if want not in values:
            tallies = [given[t] for t in balance_tallies(here)]
            want = least_given(values, tallies, ties.__getitem__)
            # counted when the slot first meets the group, and again when its answer
            # has run out for a retry (two such retries then take two answers)
            for tally in tallies:
                tally[want] += 1
            targets[(slot, group)] = want
        # the place's own template when it gives the answer, else another of its group
        fits = [k for k, p in enumerate(pool) if value[id(p)] == want]
        chosen = pool.pop(next((k for k in fits if balanced_template(pool[k]) == template),
                               fits[0]))
        out[li][i] = chosen
        placed.add((li, i))
    # the places no slot visits: the plans left, in list order
    for (li, group), pool in pools.items():
        rest = iter(pool)
        for i, p in enumerate(lists[li]):
            if (li, i) not in placed and balanced_template(p) is not None \
                    and swap_group(p) == group:
                out[li][i] = next(rest)
    return out
