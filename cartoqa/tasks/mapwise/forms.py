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
from collections.abc import Callable
from dataclasses import dataclass

from cartoqa.tasks.mapwise.common import MapwiseContext, Question

__all__ = ["FAMILIES", "FORMS", "Form", "ask_forms", "form", "forms"]

#: A form's generator.
FormFn = Callable[[MapwiseContext, random.Random, Counter[str]], Question | None]

#: Families of forms, after MapWise's template groups.
FAMILIES: tuple[str, ...] = ("classic", "legend", "named_parts", "similarity", "direction",
                             "distribution", "closer_to", "border", "compound",
                             "missing_data")


@dataclass(frozen=True)
class Form:
    """One declared question form.

    Attributes
    ----------
    template : str
        Its name in ``strata.template``.
    family : str
        One of :data:`FAMILIES`.
    request : str
        The answer type it asks.
    make : callable
        ``(ctx, rng, skipped) -> Question | None``.
    """

    template: str
    family: str
    request: str
    make: FormFn


#: Every declared form, in declaration order.
FORMS: list[Form] = []


def form(template: str, family: str, request: str) -> Callable[[FormFn], FormFn]:
    """Declare a form (decorator)."""
    assert family in FAMILIES, family

    def register(fn: FormFn) -> FormFn:
        if any(f.template == template for f in FORMS):
            raise ValueError(f"form {template} declared twice")
        FORMS.append(Form(template, family, request, fn))
        return fn

    return register


def forms() -> list[Form]:
    """Every form, with the modules that declare them imported."""
    from cartoqa.tasks.mapwise import legend_forms, part_forms, region_forms  # noqa: F401

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


def skip(skipped: Counter[str], template: str, why: str) -> None:
    """Count a form not asked, as ``<template>_<why>``."""
    skipped[f"{template}_{why}"] += 1
