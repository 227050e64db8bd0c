"""Forms about named parts of a country (MapWise templates 11-16, 20-26, 30, 31, 37, 38):
the extreme of a part, its regions in a class or above a value, its top regions, its
median, majority and "all" questions, two parts' averages, outliers, and regions of a
part higher than (similar to) a given region.

Parts are official groupings (:mod:`groundtruth.thematic.parts`: US Census regions and
divisions, the states bordering Canada or Mexico, India's Zonal Councils and the North
Eastern Council, China's four economic regions). A part is asked about only when every
member on the map has data and at least three members are drawn; the question names
the part and the source's wording, so a reader who does not know the grouping can
still not guess it from the map: that knowledge is part of what MapWise tests.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter

from cartoqa.tasks.common.sampling import choose_by_answer, choose_count
from cartoqa.tasks.mapwise.common import MapwiseContext, Question
from cartoqa.tasks.mapwise.form_registry import form, skip

#: Most regions a single-word answer about a part accepts.
MAX_PART_ACCEPTED = 3

#: The "how many ... higher than" counts (``part_count_higher_than_region``,
#: ``neighbours_higher_count``) ask 0 only on maps where every valid region gives 0, and
#: there on this share of the maps (:func:`~cartoqa.tasks.common.sampling.choose_count`;
#: the form is skipped on the others, counted as ``only_zero``). Before, 0 answered 33
#: of their 75 items on the default build (issue 29).
ZERO_COUNT_SHARE = 0.25


def usable_parts(ctx: MapwiseContext, min_size: int = 3) -> list[tuple[str, list[str]]]:
    """(phrase, members) of the parts whose drawn members all have data."""
    out = []
    for part, members in ctx.parts.values():
        if len(members) >= min_size and all(m in ctx.values for m in members):
            out.append((part.phrase, members))
    return out


def conditions(ctx: MapwiseContext, pool: list[str]) -> list[tuple[str, list[str]]]:
    """(phrase, matching regions of ``pool``) a reader can check for every region of the
    pool: legend classes (discrete), or "above" an inner tick every region is clear of."""
    if ctx.colour_bar is None:
        return [(f"shown in the legend class {label}",
                 sorted(c for c in pool if ctx.classes[c] == cls))
                for cls, label in enumerate(ctx.classification.labels, start=1)]
    bar = ctx.colour_bar
    out = []
    for i in range(1, len(bar.ticks) - 1):
        if all(ctx.clear_of_tick(c, bar.ticks[i]) for c in pool):
            out.append((f"with a value above {bar.tick_labels[i]}",
                        sorted(c for c in pool if ctx.shown(c) > bar.ticks[i])))
    return out


def _names(ctx: MapwiseContext, codes: list[str]) -> str:
    return ", ".join(ctx.region(c) for c in codes)


@form("part_extreme", "named_parts", "single")
def part_extreme(ctx: MapwiseContext, rng: random.Random,
                 skipped: Counter[str]) -> Question | None:
    """The region of a part with the highest (lowest) value."""
    options = []
    for phrase, members in usable_parts(ctx):
        for way in (True, False):
            acc = ctx.extreme(members, way)
            if acc is not None and len(acc) <= MAX_PART_ACCEPTED and len(acc) < len(members):
                options.append((phrase, members, way, acc))
    if not options:
        skip(skipped, "part_extreme", "no_clear_extreme")
        return None
    phrase, members, way, acc = rng.choice(options)
    word = "highest" if way else "lowest"
    return Question("single", "part_extreme",
                    ctx.ask(f"Which {ctx.word} in {phrase} has the {word} value?", "single"),
                    {"accepted": acc, "text": ctx.regions[acc[0]].name}, members)


@form("part_in_class", "named_parts", "list")
def part_in_class(ctx: MapwiseContext, rng: random.Random,
                  skipped: Counter[str]) -> Question | None:
    """The regions of a part in a legend class (above a tick)."""
    options = [(phrase, members, cond, hits) for phrase, members in usable_parts(ctx)
               for cond, hits in conditions(ctx, members) if hits]
    if not options:
        skip(skipped, "part_in_class", "no_condition")
        return None
    phrase, members, cond, hits = rng.choice(options)
    return Question("list", "part_in_class",
                    ctx.ask(f"Which {ctx.words} in {phrase} are {cond}?", "list"),
                    {"items": hits}, members)


@form("part_count", "named_parts", "count")
def part_count(ctx: MapwiseContext, rng: random.Random,
               skipped: Counter[str]) -> Question | None:
    """How many regions of a part are in a class (above a tick)."""
    options = [(phrase, members, cond, hits) for phrase, members in usable_parts(ctx)
               for cond, hits in conditions(ctx, members)]
    if not options:
        skip(skipped, "part_count", "no_condition")
        return None
    phrase, members, cond, hits = choose_by_answer(rng, options, lambda o: len(o[3]))
    return Question("count", "part_count",
                    ctx.ask(f"How many {ctx.words} in {phrase} are {cond}?", "count"),
                    {"count": len(hits)}, members)


@form("part_top_n", "named_parts", "list")
def part_top_n(ctx: MapwiseContext, rng: random.Random,
               skipped: Counter[str]) -> Question | None:
    """The ``n`` regions of a part with the highest (lowest) values."""
    options = []
    for phrase, members in usable_parts(ctx, min_size=4):
        for way in (True, False):
            ranked = sorted(members, key=lambda c: (ctx.level(c), c), reverse=way)
            for n in (2, 3):
                top, rest = ranked[:n], ranked[n:]
                if all(ctx.distinct(a, b) for a in top for b in rest):
                    options.append((phrase, members, way, n, sorted(top)))
    if not options:
        skip(skipped, "part_top_n", "no_clear_cut")
        return None
    phrase, members, way, n, top = rng.choice(options)
    word = "highest" if way else "lowest"
    return Question("list", "part_top_n",
                    ctx.ask(f"List the {n} {ctx.words} in {phrase} with the {word} values.",
                            "list"), {"items": top}, members)


@form("part_is_extreme", "named_parts", "binary")
def part_is_extreme(ctx: MapwiseContext, rng: random.Random,
                    skipped: Counter[str]) -> Question | None:
    """Whether a given region has the highest (lowest) value of its part."""
    options = []
    for phrase, members in usable_parts(ctx):
        for way in (True, False):
            acc = ctx.extreme(members, way)
            if acc is None or len(acc) != 1:
                continue
            for c in members:
                if c in acc or ctx.distinct(c, acc[0]):
                    options.append((phrase, members, way, c, c in acc))
    if not options:
        skip(skipped, "part_is_extreme", "no_clear_extreme")
        return None
    want = rng.random() < 0.5
    pick = [o for o in options if o[4] == want] or options
    phrase, members, way, c, answer = rng.choice(pick)
    word = "highest" if way else "lowest"
    return Question("binary", "part_is_extreme",
                    ctx.ask(f"Does {ctx.region(c)} have the {word} value of the {ctx.words} "
                            f"in {phrase}?", "binary"), {"value": answer}, members)


@form("part_average_compare", "distribution", "binary")
def part_average(ctx: MapwiseContext, rng: random.Random,
                 skipped: Counter[str]) -> Question | None:
    """Whether the regions of one part have higher values on average than another's.

    Asked only when the mean levels a reader sees (classes, bar positions, printed
    values) differ by a clear margin (one class; :data:`~cartoqa.tasks.mapwise.common.
    MIN_BAR_GAP` of the bar; 15% of the printed range) and agree in direction with the
    data's means."""
    parts = usable_parts(ctx)
    if ctx.printed is not None:
        span = max(ctx.printed.values()) - min(ctx.printed.values())
        margin = 0.15 * span
    else:
        margin = 1.0 if ctx.colour_bar is None else 0.15
    options = []
    for i, (p1, m1) in enumerate(parts):
        for p2, m2 in parts[i + 1:]:
            if set(m1) & set(m2):
                continue
            seen = statistics.fmean(ctx.level(c) for c in m1) - statistics.fmean(
                ctx.level(c) for c in m2)
            true = statistics.fmean(ctx.values[c] for c in m1) - statistics.fmean(
                ctx.values[c] for c in m2)
            if abs(seen) >= margin and (seen > 0) == (true > 0) and true != 0:
                options.append((p1, m1, p2, m2, true > 0))
    if not options:
        skip(skipped, "part_average_compare", "no_clear_pair")
        return None
    p1, m1, p2, m2, answer = rng.choice(options)
    if rng.random() < 0.5:
        p1, m1, p2, m2, answer = p2, m2, p1, m1, not answer
    return Question("binary", "part_average_compare",
                    ctx.ask(f"Do the {ctx.words} in {p1} have higher values on average than "
                            f"the {ctx.words} in {p2}?", "binary"),
                    {"value": answer}, sorted(m1 + m2))


def _median_region(ctx: MapwiseContext, members: list[str]) -> str | None:
    """The middle region of an odd-sized part, when it is clearly in the middle."""
    if len(members) % 2 == 0:
        return None
    ranked = sorted(members, key=lambda c: (ctx.values[c], c))
    return ranked[len(ranked) // 2]


@form("part_median_range", "distribution", "range")
def part_median_range(ctx: MapwiseContext, rng: random.Random,
                      skipped: Counter[str]) -> Question | None:
    """The legend class of a part's median region (discrete; odd-sized parts)."""
    if ctx.continuous:
        return None
    options = [(p, m, _median_region(ctx, m)) for p, m in usable_parts(ctx)]
    options = [o for o in options if o[2] is not None]
    if not options:
        skip(skipped, "part_median_range", "no_odd_part")
        return None
    phrase, members, med = rng.choice(options)
    assert med is not None
    cls = ctx.classes[med]
    lo, hi = ctx.classification.label_bounds[cls - 1]
    return Question("range", "part_median_range",
                    ctx.ask(f"In which legend range does the median value of the "
                            f"{ctx.words} in {phrase} fall?", "range"),
                    {"range": [lo, hi],
                     "text": ctx.classification.labels[cls - 1].replace("–", " - "),
                     "continuous": False}, members)


@form("part_above_median", "distribution", "binary")
def part_above_median(ctx: MapwiseContext, rng: random.Random,
                      skipped: Counter[str]) -> Question | None:
    """Whether a region's value is above the median of its part (odd-sized parts; the
    region clearly apart from the median region)."""
    options = []
    for phrase, members in usable_parts(ctx):
        med = _median_region(ctx, members)
        if med is None:
            continue
        for c in members:
            if c != med and ctx.distinct(c, med):
                options.append((phrase, members, c, ctx.values[c] > ctx.values[med]))
    if not options:
        skip(skipped, "part_above_median", "no_clear_region")
        return None
    phrase, members, c, answer = rng.choice(options)
    return Question("binary", "part_above_median",
                    ctx.ask(f"Is the value of {ctx.region(c)} above the median value of the "
                            f"{ctx.words} in {phrase}?", "binary"), {"value": answer}, members)


@form("part_majority", "distribution", "binary")
def part_majority(ctx: MapwiseContext, rng: random.Random,
                  skipped: Counter[str]) -> Question | None:
    """Whether a majority of a part's regions are in a class (above a tick)."""
    options = [(p, m, cond, len(hits) * 2 > len(m)) for p, m in usable_parts(ctx)
               for cond, hits in conditions(ctx, m) if hits and len(hits) * 2 != len(m)]
    if not options:
        skip(skipped, "part_majority", "no_condition")
        return None
    want = rng.random() < 0.5
    phrase, members, cond, answer = rng.choice([o for o in options if o[3] == want]
                                               or options)
    return Question("binary", "part_majority",
                    ctx.ask(f"Are a majority of the {ctx.words} in {phrase} {cond}?",
                            "binary"), {"value": answer}, members)


@form("part_all", "distribution", "binary")
def part_all(ctx: MapwiseContext, rng: random.Random,
             skipped: Counter[str]) -> Question | None:
    """Whether every region of a part is in a class (above a tick)."""
    options = [(p, m, cond, len(hits) == len(m)) for p, m in usable_parts(ctx)
               for cond, hits in conditions(ctx, m) if hits]
    if not options:
        skip(skipped, "part_all", "no_condition")
        return None
    want = rng.random() < 0.5
    phrase, members, cond, answer = rng.choice([o for o in options if o[3] == want]
                                               or options)
    return Question("binary", "part_all",
                    ctx.ask(f"Are all the {ctx.words} in {phrase} {cond}?", "binary"),
                    {"value": answer}, members)


@form("part_outlier", "distribution", "binary")
def part_outlier(ctx: MapwiseContext, rng: random.Random,
                 skipped: Counter[str]) -> Question | None:
    """Whether a region is an outlier of its part: yes when its fill is at least two
    classes (30% of the bar) from every other member's, no when it looks the same as
    another member; between, not asked."""
    gap = 2.0 if ctx.colour_bar is None else 0.3
    options = []
    for phrase, members in usable_parts(ctx, min_size=4):
        for c in members:
            others = [o for o in members if o != c]
            if all(abs(ctx.fill_level(c) - ctx.fill_level(o)) >= gap for o in others):
                options.append((phrase, members, c, True))
            elif any(ctx.look_alike(c, o) for o in others):
                options.append((phrase, members, c, False))
    if not options:
        skip(skipped, "part_outlier", "none")
        return None
    want = rng.random() < 0.5
    phrase, members, c, answer = rng.choice([o for o in options if o[3] == want]
                                            or options)
    return Question("binary", "part_outlier",
                    ctx.ask(f"Is {ctx.region(c)} an outlier compared with the other "
                            f"{ctx.words} in {phrase} (its value far from all of theirs)?",
                            "binary"), {"value": answer}, members)


def _relative(ctx: MapwiseContext) -> list[tuple[str, list[str], str, list[str]]]:
    """(phrase, members, region, members higher than it) where every other member is
    clearly apart from the region."""
    out = []
    for phrase, members in usable_parts(ctx):
        for c in members:
            others = [o for o in members if o != c]
            if all(ctx.distinct(c, o) for o in others):
                out.append((phrase, members, c,
                            sorted(o for o in others if ctx.level(o) > ctx.level(c))))
    return out


@form("part_higher_than_region", "named_parts", "list")
def part_higher_than(ctx: MapwiseContext, rng: random.Random,
                     skipped: Counter[str]) -> Question | None:
    """The regions of a part with a higher value than a given region."""
    options = [o for o in _relative(ctx) if len(o[3]) >= 1]
    if not options:
        skip(skipped, "part_higher_than_region", "no_clear_region")
        return None
    phrase, members, c, higher = rng.choice(options)
    return Question("list", "part_higher_than_region",
                    ctx.ask(f"Which {ctx.words} in {phrase} have a higher value than "
                            f"{ctx.region(c)}?", "list"), {"items": higher}, members)


@form("part_count_higher_than_region", "named_parts", "count")
def part_count_higher(ctx: MapwiseContext, rng: random.Random,
                      skipped: Counter[str]) -> Question | None:
    """How many regions of a part have a higher value than a given region."""
    options = _relative(ctx)
    if not options:
        skip(skipped, "part_count_higher_than_region", "no_clear_region")
        return None
    chosen = choose_count(rng, options, lambda o: len(o[3]), zero_share=ZERO_COUNT_SHARE)
    if chosen is None:
        skip(skipped, "part_count_higher_than_region", "only_zero")
        return None
    phrase, members, c, higher = chosen
    return Question("count", "part_count_higher_than_region",
                    ctx.ask(f"How many {ctx.words} in {phrase} have a higher value than "
                            f"{ctx.region(c)}?", "count"), {"count": len(higher)}, members)


@form("part_similar_to_region", "similarity", "list")
def part_similar(ctx: MapwiseContext, rng: random.Random,
                 skipped: Counter[str]) -> Question | None:
    """The regions of a part whose value is similar to a given region's: the same class
    (discrete), or fills within the tie gap (colour bar); asked only when every other
    member is either alike or clearly apart."""
    options = []
    for phrase, members in usable_parts(ctx):
        for c in members:
            others = [o for o in members if o != c]
            alike = [o for o in others if ctx.look_alike(c, o)]
            if alike and all(o in alike or ctx.look_distinct(c, o) for o in others):
                options.append((phrase, members, c, sorted(alike)))
    if not options:
        skip(skipped, "part_similar_to_region", "no_clear_region")
        return None
    phrase, members, c, alike = rng.choice(options)
    how = ("in the same legend class as" if ctx.colour_bar is None
           else "with about the same shade as")
    return Question("list", "part_similar_to_region",
                    ctx.ask(f"Which other {ctx.words} in {phrase} have a value similar to "
                            f"that of {ctx.region(c)} ({how} it)?", "list"),
                    {"items": alike}, members)
