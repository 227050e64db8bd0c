"""MapWise's classic questions do not lean to one answer (issue 29): over many seeds
the class and tick questions answer yes about half the time, every answer still right
by hand, and the count of regions above a tick is not always the same number."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cartoqa.tasks.mapwise import binary, count
from cartoqa.tasks.mapwise.build import colour_bar
from cartoqa.tasks.mapwise.common import MapwiseContext
from groundtruth.thematic.classification import fisher_jenks
from groundtruth.thematic.countries import INDIA

# Seven regions, as in test_mapwise_tasks: {BR, UP} {MH} {GA, KL} {TN} {AP}.
VALUES = {"BR": 1.0, "UP": 2.0, "MH": 30.0, "GA": 50.0, "KL": 50.5, "TN": 70.0, "AP": 95.0}
_ROW = list(VALUES)
ADJ = {c: frozenset(_ROW[max(0, i - 1):i] + _ROW[i + 1:i + 2]) for i, c in enumerate(_ROW)}


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
