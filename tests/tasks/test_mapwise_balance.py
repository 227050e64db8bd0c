"""MapWise's classic questions do not lean to one answer (issue 29): over many seeds
the class and tick questions answer yes about half the time, every answer still right
by hand, and the count of regions above a tick is not always the same number."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cartoqa.tasks.common import sampling
from cartoqa.tasks.mapwise import binary, build, count, part_forms, region_forms
from cartoqa.tasks.mapwise.build import STYLES, colour_bar
from cartoqa.tasks.mapwise.common import MapwiseContext
from groundtruth.thematic.classification import fisher_jenks
from groundtruth.thematic.countries import INDIA
from groundtruth.thematic.variables import Variable
from renderers.thematic.design import HATCH_SETS

# Seven regions, as in test_mapwise_tasks: {BR, UP} {MH} {GA, KL} {TN} {AP}.
VALUES = {"BR": 1.0, "UP": 2.0, "MH": 30.0, "GA": 50.0, "KL": 50.5, "TN": 70.0, "AP": 95.0}
_ROW = list(VALUES)
ADJ = {c: frozenset(_ROW[max(0, i - 1):i] + _ROW[i + 1:i + 2]) for i, c in enumerate(_ROW)}


STYLES_KIND = {style: kind[0] for style, kind in STYLES.items()}


def _ctx(continuous: bool) -> MapwiseContext:
    bar = colour_bar(VALUES, "gradient") if continuous else None
    return MapwiseContext("india", INDIA, "Test", dict(VALUES), fisher_jenks(VALUES), bar,
                          ADJ)


@pytest.mark.parametrize("continuous", [False, True])
def test_class_and_tick_questions_answer_yes_half_the_time(continuous: bool) -> None:
    ctx = _ctx(continuous)
    template = "above_tick" if continuous else "in_class"
    answers = []
    for seed in range(400):
        for q in binary.make_questions(ctx, random.Random(seed), Counter()):
            if q.template != template:
                continue
            (code,) = q.asked
            if continuous:
                bar = ctx.colour_bar
                assert bar is not None
                tick = bar.ticks[bar.tick_labels.index(q.text.split(" above ")[1]
                                                       .split("?")[0])]
                assert q.answer["value"] == (VALUES[code] > tick)
            else:
                label = q.text.split("legend class ")[1].split("?")[0]
                cls = ctx.classification.labels.index(label) + 1
                assert q.answer["value"] == (ctx.classes[code] == cls)
            answers.append(q.answer["value"])
    assert len(answers) == 400
    # before: yes in 1/2 + 1/(2k) of the class questions (60% with 5 classes)
    assert 0.44 <= sum(answers) / len(answers) <= 0.56


def test_above_tick_counts_spread_over_the_counts_the_ticks_give() -> None:
    # a high value apart from the rest: the ticks clear of every region are mostly
    # those just below it (count 1); each count the clear ticks give comes as often
    values = {"BR": 1.0, "UP": 2.0, "MH": 5.0, "GA": 150.0, "KL": 160.0, "TN": 170.0,
              "AP": 400.0}  # ticks 0, 80, ... 400: clear 80 (4 above), 240 and 320 (1)
    ctx = MapwiseContext("india", INDIA, "Test", values, fisher_jenks(values),
                         colour_bar(values, "gradient"), ADJ)
    bar = ctx.colour_bar
    assert bar is not None
    clear = count.clear_ticks(ctx)
    given = [sum(1 for v in values.values() if v > bar.ticks[i]) for i in clear]
    assert given.count(1) >= 2 and len(set(given)) >= 2, given  # the map leans to 1
    seen: Counter[int] = Counter()
    for seed in range(400):
        for q in count.make_questions(ctx, random.Random(seed), Counter()):
            if q.template == "above_tick":
                seen[q.answer["count"]] += 1
    assert set(seen) == set(given) and sum(seen.values()) == 400
    # before: each clear tick as likely, so count 1 in given.count(1) / len(given)
    assert all(abs(n / 400 - 1 / len(set(given))) < 0.07 for n in seen.values()), seen


def test_compound_higher_draws_yes_or_no_first() -> None:
    # Discrete map: classes BR, UP 1; MH 2; GA, KL 3; TN 4; AP 5. By hand, of the 210
    # ordered trios of distinct regions, x is clearly apart from y and z (other classes)
    # in 2 * 5 * 4 + 6 * 5 + 2 * 5 * 4 + 6 * 5 + 6 * 5 = 170, and the highest of the
    # three in 0 + 2 * 1 + 2 * 3 * 2 + 5 * 4 + 6 * 5 = 64 of those: a random clear trio
    # answers yes 38 % of the time. Drawn first, yes comes half the time, every answer
    # right.
    ctx = _ctx(False)
    codes = list(VALUES)
    clear = [(x, y, z) for x in codes for y in codes for z in codes
             if len({x, y, z}) == 3 and ctx.classes[x] not in (ctx.classes[y], ctx.classes[z])]
    yes = [t for t in clear if ctx.classes[t[0]] > max(ctx.classes[t[1]], ctx.classes[t[2]])]
    assert (len(clear), len(yes)) == (170, 64)
    answers = []
    for seed in range(400):
        q = region_forms.compound(ctx, random.Random(seed), Counter())
        assert q is not None
        x, y, z = q.asked
        assert q.answer["value"] == (ctx.classes[x] > ctx.classes[y]
                                     and ctx.classes[x] > ctx.classes[z])
        answers.append(q.answer["value"])
    assert 0.44 <= sum(answers) / len(answers) <= 0.56


def test_above_tick_count_not_asked_when_its_answer_is_fixed() -> None:
    # One lone high value: values 1-10 and 95 on ticks 0, 20, ..., 100; the ticks clear of
    # every region are 20, 40, 60 and 80, each with 1 region above (AP): the count would
    # be 1 whatever tick is asked, so the map asks none and says why.
    values = {"BR": 1.0, "UP": 2.0, "MH": 4.0, "GA": 6.0, "KL": 8.0, "TN": 10.0, "AP": 95.0}
    ctx = MapwiseContext("india", INDIA, "Test", values, fisher_jenks(values),
                         colour_bar(values, "gradient"), ADJ)
    bar = ctx.colour_bar
    assert bar is not None
    given = {sum(1 for v in values.values() if v > bar.ticks[i]) for i in count.clear_ticks(ctx)}
    assert given == {1}
    skipped: Counter[str] = Counter()
    qs = [q for q in count.make_questions(ctx, random.Random(0), skipped)
          if q.template == "above_tick"]
    assert qs == [] and skipped["count_one_answer"] == 1


def test_class_counts_spread_over_the_styles_choices() -> None:
    # The default build's plan: 14 maps per country, 10 real (each style once) and 4
    # counterfactual (discrete_light, continuous_gradient, twice each). Discrete maps per
    # country: light x3, hatched, dark, annotated (3-5), grey (3-4), gradient (6-8); over
    # three countries 21 maps share 3, 4, 5 (seven each, the least used first) and the
    # three viridis maps take 6, 7 and 8. Before: 4 on 9, 5 on 9, 3 on 3, 8 on 3.
    plans = build.plan_maps({c: [Variable("x", "X", "test", {"a": 1.0, "b": 2.0}, "t", "t")]
                             for c in ("usa", "india", "china")}, 14, 0)
    ks = Counter(p.k for p in plans if STYLES_KIND[p.style] == "discrete")
    assert ks == {3: 7, 4: 7, 5: 7, 6: 1, 7: 1, 8: 1}
    assert all(p.k in build.STYLE_CLASS_CHOICES[p.style] for p in plans
               if STYLES_KIND[p.style] == "discrete")
    hatched = [p.k for p in plans if p.style == "hatched"]
    assert all(k in HATCH_SETS for k in hatched)


# A row of seven regions whose values alternate low and high: UP, GA and TN are higher
# than both neighbours (0 higher), MH and KL lower than both (2 higher).
ZIGZAG = {"BR": 1.0, "UP": 90.0, "MH": 2.0, "GA": 80.0, "KL": 3.0, "TN": 70.0, "AP": 4.0}


def test_neighbour_counts_ask_zero_only_where_nothing_else_is_possible() -> None:
    ctx = MapwiseContext("india", INDIA, "Test", dict(ZIGZAG), fisher_jenks(ZIGZAG), None,
                         ADJ)
    got = Counter()
    for seed in range(200):
        q = region_forms.neighbours_higher(ctx, random.Random(seed), Counter())
        assert q is not None
        (code, *_) = q.asked
        assert q.answer["count"] == (2 if code in ("MH", "KL") else 0)
        got[q.answer["count"]] += 1
    # before: a count drawn uniformly among {0, 2}, 0 on about half (issue 29)
    assert got == {2: 200}
    # a map where every region gives 0 asks it on about a quarter of the seeds only
    only_zero = [sampling.choose_count(random.Random(s), ["UP", "GA"], lambda c: 0,
                                       zero_share=part_forms.ZERO_COUNT_SHARE)
                 for s in range(400)]
    assert 0.18 <= sum(c is not None for c in only_zero) / 400 <= 0.32
