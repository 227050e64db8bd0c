"""Answer balance of the MapIQ samplers (issue 29, point 3).

The samplers take each template's yes/no and correct letter from a seeded quota over
consecutive slots (``common.quota``: pairs for yes/no, fives for letters): over 40 slots a
template whose answer the quota alone decides is exactly balanced; the others (where a map
may not offer the asked answer) are held to loose bounds.
"""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapiq import task_modules
from cartoqa.tasks.mapiq.common import (
    BINARY_STRATA,
    NOTA,
    MapContext,
    Question,
    mcq,
    quota,
    wants_nota,
)
from groundtruth.thematic.classification import fisher_jenks_absorbing
from groundtruth.thematic.us_states import CONTIGUOUS, us_zones
from renderers.thematic.hexgrid import hex_adjacency, us_hex_layout

SLOTS = 40
ZONE_OFFSET = {"West": 0.0, "Midwest": 1.0, "Northeast": 2.0, "South": 3.0}


def _maps() -> list[MapContext]:
    """40 maps of seeded values; every map but one in four has the South clearly highest
    (as the crime maps do), so a sampler that only asks about the South repeats itself."""
    zoning = us_zones()
    adjacency = hex_adjacency(us_hex_layout())
    out = []
    for slot in range(SLOTS):
        rng = random.Random(slot)
        shift = dict(ZONE_OFFSET) if slot % 4 else {z: rng.uniform(0, 3) for z in ZONE_OFFSET}
        values = {s: shift[zoning[s]] + rng.uniform(0, 2) for s in CONTIGUOUS}
        c = fisher_jenks_absorbing(values)
        out.append(MapContext("cartogram", "baseline", "T", c, dict(zoning),
                              {s: adjacency[s] & set(zoning) for s in zoning},
                              seed=3, slot=slot))
    return out


def _questions() -> dict[tuple[str, str], list[Question]]:
    by_template: dict[tuple[str, str], list[Question]] = {}
    for ctx in _maps():
        rng = random.Random(ctx.slot)
        for module in task_modules():
            for q in module.make_questions(ctx, rng, Counter()):
                by_template.setdefault((module.SPEC.name, q.request), []).append(q)
    return by_template


QUESTIONS = _questions()


def _is_nota(q: Question) -> bool:
    return (q.options or {}).get(q.answer["letters"][0]) == NOTA


def _first_letters(qs: list[Question]) -> Counter[str]:
    return Counter(min(q.answer["letters"]) for q in qs)


def test_quota_is_exact_per_block() -> None:
    ctx = _maps()[0]
    maps = [MapContext(ctx.map_type, ctx.variation, "T", ctx.classification, ctx.zoning,
                       ctx.adjacency, seed=5, slot=i) for i in range(SLOTS)]
    yes = [quota(m, "mapiq_se", "binary", BINARY_STRATA) < 0.5 for m in maps]
    assert all(yes[i] != yes[i + 1] for i in range(0, SLOTS, 2))  # one of every pair
    letters = [int(quota(m, "mapiq_se", "mcq") * 5) for m in maps]
    assert all(sorted(letters[i:i + 5]) == [0, 1, 2, 3, 4] for i in range(0, SLOTS, 5))
    assert sum(wants_nota(quota(m, "mapiq_se", "mcq")) for m in maps) == 8
    assert letters != [int(quota(m, "mapiq_rv", "mcq") * 5) for m in maps]  # per template


def test_mcq_places_the_answer_where_the_quota_says() -> None:
    # One correct option, four wrong: strata 0.1, 0.3, 0.5, 0.7 put it at a, b, c, d;
    # 0.9 asks for NOTA (e), offering four wrong options.
    got = []
    for i in range(5):
        options, letters = mcq(random.Random(i), ["TX"], ["CA", "NY", "OR", "WA"],
                               target=(i + 0.5) / 5)
        got.append(letters)
        assert options["e"] == NOTA
        assert ("TX" in options.values()) == (i < 4)
    assert got == [["a"], ["b"], ["c"], ["d"], ["e"]]
    # NOTA asked for with only three wrong states: a correct option instead.
    options, letters = mcq(random.Random(0), ["TX"], ["CA", "NY", "OR"], target=0.9)
    assert letters != ["e"] and options[letters[0]] == "TX"
    # Nothing correct: NOTA whatever the quota.
    assert mcq(random.Random(0), [], ["CA", "NY", "OR", "WA"], target=0.1)[1] == ["e"]


def test_binary_is_exactly_half_true_where_the_quota_decides() -> None:
    for template in [("mapiq_rv", "binary"), ("mapiq_ppc", "binary"), ("mapiq_dr", "binary"),
                     ("mapiq_se", "binary"), ("mapiq_rc", "binary")]:
        qs = QUESTIONS[template]
        assert len(qs) == SLOTS, template
        assert sum(q.answer["value"] for q in qs) == 20, template


def test_cluster_binary_is_near_half() -> None:
    qs = QUESTIONS[("mapiq_sc", "binary")]
    share = sum(q.answer["value"] for q in qs) / len(qs)
    assert 0.4 <= share <= 0.6


def test_mcq_letters_are_uniform_and_nota_at_chance() -> None:
    # One correct option and at least four wrong ones: exactly 8 of 40 per letter.
    for template in [("mapiq_rv", "mcq"), ("mapiq_dr", "mcq")]:
        assert _first_letters(QUESTIONS[template]) == dict.fromkeys("abcde", 8), template
    # Several correct options: NOTA (the last letter) at the quota's 1/5 (one more where
    # a map has no scope with a cluster to offer), and
    # a-d, which also carry the extra correct options, within 10 of 40 of each other
    # (seeded places: about three standard deviations of 40 draws).
    for template in [("mapiq_ppc", "mcq"), ("mapiq_se", "mcq"), ("mapiq_sc", "mcq")]:
        qs = QUESTIONS[template]
        nota = sum(map(_is_nota, qs))
        assert 8 <= nota <= 9, (template, nota)
        held = Counter(x for q in qs for x in q.answer["letters"])
        assert max(held[x] for x in "abcd") - min(held[x] for x in "abcd") <= 10, held


def test_regional_comparisons_vary_across_maps() -> None:
    # 30 of the 40 maps put the South clearly first: the questions still differ.
    mcqs = QUESTIONS[("mapiq_rc", "mcq")]
    assert len({q.details["zone"] for q in mcqs}) >= 3
    assert len({tuple(q.answer["letters"]) for q in mcqs}) >= 3
    nota = sum(map(_is_nota, mcqs))
    # at most a uniform guess's rate: 1 / options per question, summed (+1 for rounding)
    assert nota <= sum(1 / len(q.options or {"a": ""}) for q in mcqs) + 1
    binary = QUESTIONS[("mapiq_rc", "binary")]
    assert len({(*q.details["zones"], q.details["direction"]) for q in binary}) >= 6
