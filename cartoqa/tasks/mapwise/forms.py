"""MapWise's question forms beyond the classic eight, declared by answer type.

A *form* is one question template of MapWise's families (legend reading, named parts of a
country, similarity, direction, distribution, closer-to, borders, compound questions,
missing data): a function that, given a map (:class:`~cartoqa.tasks.mapwise.common.
MapwiseContext`), returns one :class:`~cartoqa.tasks.mapwise.common.Question` or
``None`` (the reason counted in ``skipped``) when the map cannot support it: ground truth
comes from the data, and a form asks only what a careful reader can answer from the
pixels (the map passed the pixel check; comparisons go through the context's
:meth:`~cartoqa.tasks.mapwise.common.MapwiseContext.distinct` and
:meth:`~cartoqa.tasks.mapwise.common.MapwiseContext.tied` rules; a judgement call is
skipped). Each form answers in one of the six answer types of
:mod:`cartoqa.tasks.mapwise.requests` (binary, single, count, list, range, rank), so it
inherits that type's parser and metric; the task module of that type asks it
(:func:`ask_forms`). Its ``template`` goes to ``strata.template``, its ``family`` to
``strata.family``.

The forms live in :mod:`~cartoqa.tasks.mapwise.legend_forms`,
:mod:`~cartoqa.tasks.mapwise.part_forms` and :mod:`~cartoqa.tasks.mapwise.region_forms`.
"""

from __future__ import annotations

import random
from collections import Counter

# The modules that declare forms: importing them fills the registry.
from cartoqa.tasks.mapwise import legend_forms, part_forms, region_forms  # noqa: F401
from cartoqa.tasks.mapwise.common import MapwiseContext, Question
from cartoqa.tasks.mapwise.form_registry import FAMILIES, FORMS, Form

__all__ = ["FAMILIES", "FORMS", "Form", "ask_forms", "forms"]


def forms() -> list[Form]:
    """Every declared form, in declaration order."""
    return list(FORMS)


def ask_forms(ctx: MapwiseContext, rng: random.Random, skipped: Counter[str],
              request: str) -> list[Question]:
    """One question of every form of answer type ``request`` that the map supports."""
    out = []
    for f in forms():
        if f.request != request:
            continue
        q = f.make(ctx, rng, skipped)
        if q is None:
            continue
        assert q.request == request and q.template == f.template, (q.template, f.template)
        q.family = f.family
        out.append(q)
    return out
