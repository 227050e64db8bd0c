"""Forms about single regions and their borders (MapWise templates 10, 17, 19, 32-35,
41) and missing data: similar to a neighbour, the north/south/east/west-most region in a
class or higher than all its neighbours, closer to one tick or another, the bordering
pair with the largest difference, compound comparisons, and which regions have no data.

Directions are judged on the drawn geometry: a region is the northernmost of a set when
both its interior point and its northern edge lie farthest north, each by at least
:data:`DIRECTION_MARGIN` of the country's extent (else the form is not asked).
"""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.common.sampling import choose_count
from cartoqa.tasks.mapwise.common import TICK_DELTA_E, MapwiseContext, Question
from cartoqa.tasks.mapwise.form_registry import form, skip
from cartoqa.tasks.mapwise.part_forms import ZERO_COUNT_SHARE, conditions
from renderers.thematic.design import delta_e

#: Smallest lead (share of the country's height or width) of the north/south/east/
#: west-most region over the next, by interior point and by edge.
DIRECTION_MARGIN = 0.03
#: Smallest difference (share of the bar) between a value's distances to two ticks for a
#: "closer to" question (the value then lies 10% of the bar from the half-way point);
#: its fill must also differ from the bar's colour half way by ``TICK_DELTA_E``.
CLOSER_MARGIN = 0.2
#: Most regions a missing-data list asks for.
MAX_MISSING_LIST = 10

_DIRS = {"north": (1, 1), "south": (1, -1), "east": (0, 1), "west": (0, -1)}


def directional_most(ctx: MapwiseContext, pool: list[str], direction: str) -> str | None:
    """The region of ``pool`` lying farthest in ``direction`` by a clear margin, or None."""
    if len(pool) < 2 or not ctx.points or not all(c in ctx.points for c in pool):
        return None
    axis, sign = _DIRS[direction]
    lo = min(b[axis] for b in ctx.bounds.values())
    hi = max(b[axis + 2] for b in ctx.bounds.values())
    margin = DIRECTION_MARGIN * (hi - lo)

    def edge(c: str) -> float:
        b = ctx.bounds[c]
        return sign * (b[axis + 2] if sign > 0 else b[axis])

    def point(c: str) -> float:
        return sign * ctx.points[c][axis]

    winners = []
    for key in (edge, point):
        ranked = sorted(pool, key=key, reverse=True)
        if key(ranked[0]) - key(ranked[1]) < margin:
            return None
        winners.append(ranked[0])
    return winners[0] if winners[0] == winners[1] else None


@form("similar_to_neighbour", "similarity", "binary")
def similar_neighbour(ctx: MapwiseContext, rng: random.Random,
                      skipped: Counter[str]) -> Question | None:
    """Whether a region's value is similar to its neighbour's: yes for the same class
    (fills within the tie gap), no for fills clearly apart; between, not asked."""
    options = []
    for a in ctx.codes:
        for b in ctx.neighbours(a):
            if a < b and (ctx.look_alike(a, b) or ctx.look_distinct(a, b)):
                options.append((a, b, ctx.look_alike(a, b)))
    if not options:
        skip(skipped, "similar_to_neighbour", "no_clear_pair")
        return None
    want = rng.random() < 0.5
    a, b, answer = rng.choice([o for o in options if o[2] == want] or options)
    if rng.random() < 0.5:
        a, b = b, a
    how = ("in the same legend class" if ctx.colour_bar is None
           else "about the same shade on the colour bar")
    return Question("binary", "similar_to_neighbour",
                    ctx.ask(f"Is the value of {ctx.region(a)} similar to that of its "
                            f"neighbour {ctx.region(b)} ({how})?", "binary"),
                    {"value": answer}, [a, b])


@form("direction_most_in_class", "direction", "single")
def direction_in_class(ctx: MapwiseContext, rng: random.Random,
                       skipped: Counter[str]) -> Question | None:
    """The north/south/east/west-most region in a legend class (above a tick)."""
    options = []
    for cond, hits in conditions(ctx, ctx.codes):
        for d in _DIRS:
            c = directional_most(ctx, hits, d)
            if c is not None:
                options.append((cond, d, c))
    if not options:
        skip(skipped, "direction_most_in_class", "no_clear_region")
        return None
    cond, d, c = rng.choice(options)
    return Question("single", "direction_most_in_class",
                    ctx.ask(f"Name the {d}ernmost {ctx.word} {cond}.", "single"),
                    {"accepted": [c], "text": ctx.regions[c].name}, [c])


def _local_extremes(ctx: MapwiseContext, higher: bool) -> list[str] | None:
    """Regions clearly higher (lower) than every neighbour; None when some region is
    neither clearly that nor clearly not (a judgement call)."""
    out = []
    for c in ctx.codes:
        nbrs = ctx.neighbours(c)
        if not nbrs or not ctx.all_neighbours_have_data(c):
            continue

        def beats(n: str, c: str = c) -> bool:
            return (ctx.level(c) > ctx.level(n)) if higher else (ctx.level(c) < ctx.level(n))

        if all(ctx.distinct(c, n) and beats(n) for n in nbrs):
            out.append(c)
        elif not any(ctx.tied(c, n) or (ctx.distinct(c, n) and not beats(n)) for n in nbrs):
            return None
    return out


@form("direction_most_local_extreme", "direction", "single")
def direction_local(ctx: MapwiseContext, rng: random.Random,
                    skipped: Counter[str]) -> Question | None:
    """The north/south/east/west-most region higher (lower) than all its neighbours."""
    options = []
    for higher in (True, False):
        found = _local_extremes(ctx, higher)
        if not found or len(found) < 2:
            continue
        for d in _DIRS:
            c = directional_most(ctx, found, d)
            if c is not None:
                options.append((higher, d, c))
    if not options:
        skip(skipped, "direction_most_local_extreme", "no_clear_region")
        return None
    higher, d, c = rng.choice(options)
    word = "higher" if higher else "lower"
    return Question("single", "direction_most_local_extreme",
                    ctx.ask(f"Name the {d}ernmost {ctx.word} whose value is {word} than that "
                            f"of every one of its neighbours.", "single"),
                    {"accepted": [c], "text": ctx.regions[c].name}, [c])


@form("closer_to", "closer_to", "binary")
def closer_to(ctx: MapwiseContext, rng: random.Random,
              skipped: Counter[str]) -> Question | None:
    """Whether a region's value is closer to one labelled value of the colour bar than to
    another (continuous; the distances differ by :data:`CLOSER_MARGIN` of the bar)."""
    if ctx.colour_bar is None:
        return None
    bar = ctx.colour_bar
    options = []
    for c in ctx.codes:
        p = bar.position(ctx.shown(c))
        for i in range(len(bar.ticks)):
            for j in range(i + 1, len(bar.ticks)):
                di = abs(p - bar.position(bar.ticks[i]))
                dj = abs(p - bar.position(bar.ticks[j]))
                mid = (bar.position(bar.ticks[i]) + bar.position(bar.ticks[j])) / 2
                if ctx.printed is not None:  # the printed number decides
                    clear = ctx.printed[c] != (bar.ticks[i] + bar.ticks[j]) / 2
                else:  # the fill must differ from the bar's colour half way
                    clear = (abs(di - dj) >= CLOSER_MARGIN
                             and delta_e(bar.colour_at(p), bar.colour_at(mid)) >= TICK_DELTA_E)
                if clear:
                    options.append((c, i, j, di < dj))
    if not options:
        skip(skipped, "closer_to", "no_clear_region")
        return None
    c, i, j, answer = rng.choice(options)
    if rng.random() < 0.5:
        i, j, answer = j, i, not answer
    return Question("binary", "closer_to",
                    ctx.ask(f"Is the value of {ctx.region(c)} closer to "
                            f"{bar.tick_labels[i]} than to {bar.tick_labels[j]}?", "binary"),
                    {"value": answer}, [c])


@form("border_largest_difference", "border", "binary")
def border_difference(ctx: MapwiseContext, rng: random.Random,
                      skipped: Counter[str]) -> Question | None:
    """Whether two bordering regions are the bordering pair with the largest difference:
    asked when that pair leads every other by a clear margin (one class; the bar's
    comparison gap; 15% of the printed range)."""
    pairs = sorted({(a, b) for a in ctx.codes for b in ctx.neighbours(a) if a < b})
    if len(pairs) < 2:
        return None
    if ctx.printed is not None:
        margin = 0.15 * (max(ctx.printed.values()) - min(ctx.printed.values()))
    else:
        margin = 1.0 if ctx.colour_bar is None else 0.15

    def diff(p: tuple[str, str]) -> float:
        return abs(ctx.level(p[0]) - ctx.level(p[1]))

    def data_diff(p: tuple[str, str]) -> float:
        return abs(ctx.shown(p[0]) - ctx.shown(p[1]))

    ranked = sorted(pairs, key=diff, reverse=True)
    best = ranked[0]
    if diff(best) - diff(ranked[1]) < margin:
        skip(skipped, "border_largest_difference", "no_clear_pair")
        return None
    # The pair that looks farthest apart must also be the farthest apart in the data: a
    # three-class gap (Delhi 86.2 / Uttar Pradesh 67.7, 18.5) can hold a smaller
    # difference than a two-class one (Kerala 94.0 / Karnataka 75.4, 18.6).
    if any(data_diff(p) >= data_diff(best) for p in ranked[1:]):
        skip(skipped, "border_largest_difference", "data_disagrees")
        return None
    if rng.random() < 0.5:
        pair, answer = best, True
    else:
        pair, answer = rng.choice(ranked[1:max(2, len(ranked) // 4)]), False
    a, b = pair
    return Question("binary", "border_largest_difference",
                    ctx.ask(f"Are {ctx.region(a)} and {ctx.region(b)} the pair of bordering "
                            f"{ctx.words} with the largest difference in value?", "binary"),
                    {"value": answer}, [a, b])


#: Clear trios of each answer collected before ``compound_higher`` picks one.
COMPOUND_TRIOS = 5


@form("compound_higher", "compound", "binary")
def compound(ctx: MapwiseContext, rng: random.Random,
             skipped: Counter[str]) -> Question | None:
    """Whether X is higher than Y and also higher than Z (each pair clearly apart).

    Yes or no is drawn first (a coin), then a trio that gives it among up to
    :data:`COMPOUND_TRIOS` clear trios of each answer found in 200 random draws; the
    other answer only when none gives the drawn one (issue 29: a random trio answered
    yes 13 of 18 times in one build, no about 2/3 of the time in theory).
    """
    codes = ctx.codes
    trios: dict[bool, list[tuple[str, str, str]]] = {True: [], False: []}
    for _ in range(200):
        if len(codes) < 3:
            break
        x, y, z = rng.sample(codes, 3)
        if ctx.distinct(x, y) and ctx.distinct(x, z):
            yes = ctx.level(x) > ctx.level(y) and ctx.level(x) > ctx.level(z)
            trios[yes].append((x, y, z))
        if min(len(t) for t in trios.values()) >= COMPOUND_TRIOS:
            break
    if not trios[True] and not trios[False]:
        skip(skipped, "compound_higher", "no_clear_trio")
        return None
    want = rng.random() < 0.5
    answer = want if trios[want] else not want
    x, y, z = rng.choice(trios[answer])
    return Question("binary", "compound_higher",
                    ctx.ask(f"Does {ctx.region(x)} have a higher value than {ctx.region(y)}, "
                            f"and also a higher value than {ctx.region(z)}?", "binary"),
                    {"value": answer}, [x, y, z])


@form("neighbours_higher_count", "border", "count")
def neighbours_higher(ctx: MapwiseContext, rng: random.Random,
                      skipped: Counter[str]) -> Question | None:
    """How many of a region's neighbours have a higher value (all neighbours with data
    and clearly apart from it)."""
    options = [c for c in ctx.codes if len(ctx.neighbours(c)) >= 2
               and ctx.all_neighbours_have_data(c)
               and all(ctx.distinct(c, n) for n in ctx.neighbours(c))]
    if not options:
        skip(skipped, "neighbours_higher_count", "no_clear_region")
        return None
    chosen = choose_count(rng, options, lambda o: sum(1 for n in ctx.neighbours(o)
                                                      if ctx.level(n) > ctx.level(o)),
                          zero_share=ZERO_COUNT_SHARE)
    if chosen is None:
        skip(skipped, "neighbours_higher_count", "only_zero")
        return None
    c = chosen
    count = sum(1 for n in ctx.neighbours(c) if ctx.level(n) > ctx.level(c))
    return Question("count", "neighbours_higher_count",
                    ctx.ask(f"How many of the {ctx.words} bordering {ctx.region(c)} have a "
                            f"higher value than it?", "count"), {"count": count},
                    [c, *ctx.neighbours(c)])


@form("missing_list", "missing_data", "list")
def missing_list(ctx: MapwiseContext, rng: random.Random,
                 skipped: Counter[str]) -> Question | None:
    """The regions shown as having no data."""
    if not ctx.missing or len(ctx.missing) > MAX_MISSING_LIST:
        return None
    return Question("list", "missing_list",
                    ctx.ask(f"Which {ctx.words} are shown as having no data?", "list"),
                    {"items": ctx.missing}, ctx.missing)


@form("missing_count", "missing_data", "count")
def missing_count(ctx: MapwiseContext, rng: random.Random,
                  skipped: Counter[str]) -> Question | None:
    """How many regions are shown as having no data."""
    if not ctx.missing:
        return None
    return Question("count", "missing_count",
                    ctx.ask(f"How many {ctx.words} are shown as having no data?", "count"),
                    {"count": len(ctx.missing)}, ctx.missing)


@form("missing_has_data", "missing_data", "binary")
def missing_has_data(ctx: MapwiseContext, rng: random.Random,
                     skipped: Counter[str]) -> Question | None:
    """Whether a region has data on the map (asked on maps with missing data)."""
    if not ctx.missing:
        return None
    c = rng.choice(ctx.missing) if rng.random() < 0.5 else rng.choice(ctx.codes)
    return Question("binary", "missing_has_data",
                    ctx.ask(f"Does the map give a value for {ctx.region(c)}?", "binary"),
                    {"value": c in ctx.values}, [c])
