"""Legend-reading forms (MapWise templates 1-8, 28, 40): how many classes, discrete or
continuous, the overall range, the darkest shade's range and region, which way the
colours run, one hue or several, percentages or absolute values, evenly spaced or not,
the widest class and the class with the most regions.

Colour forms are not asked on hatched (black-and-white) maps. The yes/no forms whose
answer the map's design fixes (which way the colours run, one hue, percentages, even
steps) ask the question one way or the other way round at random, so that yes is the
answer about half the time whatever the build's styles (issue 29). Lightness is CIE L*
(:func:`renderers.thematic.design.lightness`); "darker" needs a difference of
:data:`DARKNESS_GAP`.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

from cartoqa.tasks.mapwise.common import MapwiseContext, Question, lightness
from cartoqa.tasks.mapwise.form_registry import form, skip
from groundtruth.thematic.classification import format_number

#: Smallest L* difference between two ends or classes for one to count as darker.
DARKNESS_GAP = 15.0
#: Class widths count as even when the widest is at most this times the narrowest, and
#: as uneven when at least :data:`UNEVEN_RATIO` times.
EVEN_RATIO = 1.1
UNEVEN_RATIO = 1.5
#: The widest class (or the class with the most regions) is asked only when it leads the
#: next by this factor (widths) or by one region (counts).
WIDEST_LEAD = 1.2


def _range(lo: float, hi: float, text: str, continuous: bool) -> dict[str, object]:
    return {"range": [lo, hi], "text": text, "continuous": continuous}


def _class_text(ctx: MapwiseContext, cls: int) -> str:
    return ctx.classification.labels[cls - 1].replace("–", " - ")


def _end_colours(ctx: MapwiseContext) -> tuple[str, str] | None:
    """Colours of the low and high ends of the legend (None on hatched maps)."""
    if ctx.hatched:
        return None
    if ctx.colour_bar is not None:
        return ctx.colour_bar.colour_at(0.0), ctx.colour_bar.colour_at(1.0)
    if not ctx.colours:
        return None
    return ctx.colours[0], ctx.colours[-1]


def _high_end_darker(ctx: MapwiseContext, skipped: Counter[str], template: str) -> bool | None:
    """Whether the legend's high end is the darker one; ``None`` on hatched maps or when
    the two ends are too alike in lightness to tell (counted as ``<template>_ends_alike``)."""
    ends = _end_colours(ctx)
    if ends is None:
        return None
    low, high = (lightness(c) for c in ends)
    if abs(low - high) < DARKNESS_GAP:
        skip(skipped, template, "ends_alike")
        return None
    return high < low


@form("legend_class_count", "legend", "count")
def class_count(ctx: MapwiseContext, rng: random.Random,
                skipped: Counter[str]) -> Question | None:
    """How many classes the legend has (discrete)."""
    if ctx.continuous:
        return None
    extra = " (not counting a no-data entry)" if ctx.missing else ""
    return Question("count", "legend_class_count",
                    ctx.ask(f"How many distinct value classes does the legend show{extra}?",
                            "count"), {"count": ctx.classification.k}, [])


@form("legend_is_continuous", "legend", "binary")
def is_continuous(ctx: MapwiseContext, rng: random.Random,
                  skipped: Counter[str]) -> Question | None:
    """Whether the legend is continuous (a colour bar) or discrete (classes)."""
    kind = rng.choice(("continuous", "discrete"))
    answer = ctx.continuous if kind == "continuous" else not ctx.continuous
    return Question("binary", "legend_is_continuous",
                    ctx.ask(f"Is the map's legend {kind}?", "binary"), {"value": answer}, [])


@form("legend_overall_range", "legend", "range")
def overall_range(ctx: MapwiseContext, rng: random.Random,
                  skipped: Counter[str]) -> Question | None:
    """The legend's whole range: lowest to highest label (class bounds or end ticks)."""
    if ctx.colour_bar is not None:
        bar = ctx.colour_bar
        answer = _range(bar.ticks[0], bar.ticks[-1],
                        f"{bar.tick_labels[0]} - {bar.tick_labels[-1]}", True)
    else:
        bounds = ctx.classification.label_bounds
        lo, hi = bounds[0][0], bounds[-1][1]
        answer = _range(lo, hi, f"{format_number(lo, 12)} - {format_number(hi, 12)}", False)
    return Question("range", "legend_overall_range",
                    ctx.ask("What is the overall range of the legend, from its lowest to "
                            "its highest value?", "range"), answer, [])


def _darkest_class(ctx: MapwiseContext, darkest: bool) -> int | None:
    """The class whose colour is darkest (lightest), when it leads clearly."""
    if ctx.hatched or ctx.continuous or not ctx.colours:
        return None
    ls = [lightness(c) for c in ctx.colours[:ctx.classification.k]]
    order = sorted(range(len(ls)), key=lambda i: ls[i], reverse=not darkest)
    if abs(ls[order[0]] - ls[order[1]]) < 5.0:
        return None
    return order[0] + 1


@form("darkest_class_range", "legend", "range")
def darkest_range(ctx: MapwiseContext, rng: random.Random,
                  skipped: Counter[str]) -> Question | None:
    """The value range the darkest (lightest) shade stands for (discrete, coloured)."""
    darkest = rng.random() < 0.5
    cls = _darkest_class(ctx, darkest)
    if cls is None:
        return None
    lo, hi = ctx.classification.label_bounds[cls - 1]
    word = "darkest" if darkest else "lightest"
    return Question("range", "darkest_class_range",
                    ctx.ask(f"What value range does the {word} shade of the legend stand for?",
                            "range"), _range(lo, hi, _class_text(ctx, cls), False), [])


@form("darkest_region", "legend", "single")
def darkest_region(ctx: MapwiseContext, rng: random.Random,
                   skipped: Counter[str]) -> Question | None:
    """The region with the darkest shade."""
    highest = _high_end_darker(ctx, skipped, "darkest_region")  # dark end = high values
    if highest is None:
        return None
    if ctx.continuous:
        accepted = ctx.extreme(ctx.codes, highest, by_fill=True)
    else:
        cls = ctx.classification.k if highest else 1
        accepted = sorted(c for c in ctx.codes if ctx.classes[c] == cls)
    if not accepted or len(accepted) > 5:
        skip(skipped, "darkest_region", "no_clear_region")
        return None
    return Question("single", "darkest_region",
                    ctx.ask(f"Which {ctx.word} is filled with the darkest shade?", "single"),
                    {"accepted": accepted, "text": ctx.regions[accepted[0]].name}, accepted)


@form("legend_direction", "legend", "binary")
def direction(ctx: MapwiseContext, rng: random.Random,
              skipped: Counter[str]) -> Question | None:
    """Whether the colour gets darker as the value rises."""
    darker = _high_end_darker(ctx, skipped, "legend_direction")
    if darker is None:
        return None
    word = rng.choice(("darker", "lighter"))  # half the maps ask the other way round
    return Question("binary", "legend_direction",
                    ctx.ask(f"In the legend, does the colour get {word} as the value "
                            "increases?", "binary"),
                    {"value": darker == (word == "darker")}, [])


@form("legend_single_hue", "legend", "binary")
def single_hue(ctx: MapwiseContext, rng: random.Random,
               skipped: Counter[str]) -> Question | None:
    """Whether the legend uses shades of one colour (light, dark ramps) or several
    colours (the viridis gradient)."""
    if ctx.hatched or ctx.ramp not in ("light", "dark", "gradient"):
        return None
    single = ctx.ramp != "gradient"
    if rng.random() < 0.5:  # half the maps ask the other way round
        return Question("binary", "legend_single_hue",
                        ctx.ask("Does the legend use several distinct colours (rather "
                                "than shades of a single colour)?", "binary"),
                        {"value": not single}, [])
    return Question("binary", "legend_single_hue",
                    ctx.ask("Does the legend use different shades of a single colour "
                            "(rather than several distinct colours)?", "binary"),
                    {"value": single}, [])


@form("legend_percent", "legend", "binary")
def percent(ctx: MapwiseContext, rng: random.Random,
            skipped: Counter[str]) -> Question | None:
    """Whether the map shows percentages or absolute values (from the title's unit)."""
    if ctx.percent is None:
        return None
    if rng.random() < 0.5:  # half the maps ask the other way round
        return Question("binary", "legend_percent",
                        ctx.ask("Does the map show absolute values (rather than "
                                "percentages)?", "binary"), {"value": not ctx.percent}, [])
    return Question("binary", "legend_percent",
                    ctx.ask("Does the map show percentages (rather than absolute values)?",
                            "binary"), {"value": ctx.percent}, [])


@form("legend_evenly_spaced", "legend", "binary")
def evenly_spaced(ctx: MapwiseContext, rng: random.Random,
                  skipped: Counter[str]) -> Question | None:
    """Whether the legend's classes (or ticks) are evenly spaced."""
    if ctx.colour_bar is not None:
        ticks = ctx.colour_bar.ticks
        steps = [b - a for a, b in pairwise(ticks)]
    else:
        bounds = ctx.classification.label_bounds
        steps = [b[0] - a[0] for a, b in pairwise(bounds)]
    if min(steps) <= 0:
        return None
    ratio = max(steps) / min(steps)
    if EVEN_RATIO < ratio < UNEVEN_RATIO:
        skip(skipped, "legend_evenly_spaced", "neither")
        return None
    if rng.random() < 0.5:  # half the maps ask the other way round
        return Question("binary", "legend_evenly_spaced",
                        ctx.ask("Are the values of the legend unevenly spaced (steps of "
                                "different sizes from one class or labelled value to the "
                                "next)?", "binary"), {"value": ratio > EVEN_RATIO}, [])
    return Question("binary", "legend_evenly_spaced",
                    ctx.ask("Are the values of the legend evenly spaced (equal steps from "
                            "one class or labelled value to the next)?", "binary"),
                    {"value": ratio <= EVEN_RATIO}, [])


@form("widest_class", "legend", "range")
def widest_class(ctx: MapwiseContext, rng: random.Random,
                 skipped: Counter[str]) -> Question | None:
    """The class with the largest range of values (discrete)."""
    if ctx.continuous:
        return None
    widths = [hi - lo for lo, hi in ctx.classification.label_bounds]
    order = sorted(range(len(widths)), key=lambda i: -widths[i])
    if widths[order[0]] < WIDEST_LEAD * widths[order[1]]:
        skip(skipped, "widest_class", "no_clear_lead")
        return None
    cls = order[0] + 1
    lo, hi = ctx.classification.label_bounds[cls - 1]
    return Question("range", "widest_class",
                    ctx.ask("Which legend class covers the largest range of values?",
                            "range"), _range(lo, hi, _class_text(ctx, cls), False), [])


@form("fullest_class", "legend", "range")
def fullest_class(ctx: MapwiseContext, rng: random.Random,
                  skipped: Counter[str]) -> Question | None:
    """The class holding the most (fewest) regions (discrete)."""
    if ctx.continuous:
        return None
    most = rng.random() < 0.5
    counts = Counter(ctx.classes.values())
    order = sorted(range(1, ctx.classification.k + 1), key=lambda c: counts[c],
                   reverse=most)
    if counts[order[0]] == counts[order[1]]:
        skip(skipped, "fullest_class", "tie")
        return None
    cls = order[0]
    lo, hi = ctx.classification.label_bounds[cls - 1]
    word = "most" if most else "fewest"
    return Question("range", "fullest_class",
                    ctx.ask(f"Which legend range holds the {word} {ctx.words}?", "range"),
                    _range(lo, hi, _class_text(ctx, cls), False),
                    sorted(ctx.classes))
