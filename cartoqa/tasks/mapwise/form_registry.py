"""The registry of MapWise's question forms: what a form is, and how a module declares one.

The modules that hold the forms (:mod:`~cartoqa.tasks.mapwise.legend_forms`,
:mod:`~cartoqa.tasks.mapwise.part_forms`, :mod:`~cartoqa.tasks.mapwise.region_forms`)
import :func:`form` and :func:`skip` from here; :mod:`cartoqa.tasks.mapwise.forms`
imports those modules and asks their forms. See that module for what a form is.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from cartoqa.tasks.mapwise.common import MapwiseContext, Question

__all__ = ["FAMILIES", "FORMS", "Form", "FormFn", "form", "skip"]

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


def skip(skipped: Counter[str], template: str, why: str) -> None:
    """Count a form not asked, as ``<template>_<why>``."""
    skipped[f"{template}_{why}"] += 1
