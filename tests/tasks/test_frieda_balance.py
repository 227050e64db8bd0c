"""FRIEDA's ``equal`` answers A or B in seeded pairs (issue 29): a build's letters are
balanced to within one question, and every plan still draws its subject as the area
its answer names."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from cartoqa.tasks.frieda.build import FriedaState, _candidates, area_letter, plan_all
from cartoqa.tasks.frieda.questions import (
    QuestionPlan,
    balance_area_letters,
    equal_plans,
    with_area_letter,
)
from groundtruth.named_features import load_named_features
from groundtruth.relation_pairs import topological_pairs


def _subject_is_the_answer(plan: QuestionPlan) -> bool:
    (letter,) = plan.answer["names"]
    return plan.maps[1].features["AB".index(letter)] == plan.maps[0].features[0] \
        and plan.maps[1].labels == ("Area A", "Area B")


def test_with_area_letter_swaps_the_areas() -> None:
    feats = load_named_features("helsinki")
    plan = equal_plans(feats, rng=random.Random(0))[0]
    for letter in ("A", "B"):
        moved = with_area_letter(plan, letter)
        assert moved.answer["names"] == [letter] and _subject_is_the_answer(moved)
        assert moved.maps[0] == plan.maps[0] and moved.question == plan.question
        assert set(moved.maps[1].features) == set(plan.maps[1].features)


def test_equal_letters_alternate_in_pairs_over_the_slots() -> None:
    feats = load_named_features("helsinki")
    pairs = topological_pairs(feats, include_disjoint=True)
    for seed in (0, 1, 2):
        _, multi = plan_all(feats, pairs, seed=seed, count=2)["equal"]
        assert len(multi) >= 6
        letters = [p.answer["names"][0] for p in multi]
        assert all(_subject_is_the_answer(p) for p in multi)
        # each two consecutive plans (slots 0-1, 2-3, ...) answer A once and B once
        assert all(sorted(letters[k:k + 2]) == ["A", "B"]
                   for k in range(0, len(letters) - 1, 2))
        # the first three (a three-question build) hold both letters
        assert set(letters[:3]) == {"A", "B"}


def test_balance_keeps_the_plans_and_their_order() -> None:
    feats = load_named_features("helsinki")
    plans = equal_plans(feats, rng=random.Random(3))
    balanced = balance_area_letters(plans, random.Random(4))
    assert [p.meta["subject"] for p in balanced] == [p.meta["subject"] for p in plans]
    counts = [p.answer["names"][0] for p in balanced]
    assert abs(counts.count("A") - counts.count("B")) <= 1


def test_same_area_letters_alternate_over_the_slots_that_ask_it() -> None:
    """Between legend plans (here five ``area_category`` stand-ins before each
    ``same_area`` one, as ``LEGEND_WEIGHTS["equal"]`` puts them), the slots whose first
    plan is ``same_area`` answer A and B in turn, from a seeded start; a slot's answer
    depends on its number only."""
    feats = load_named_features("helsinki")
    same = equal_plans(feats, rng=random.Random(0))[:6]
    other = replace(same[0], meta={**same[0].meta, "template": "area_category"})
    multi = [p for s in same for p in (s, other, other, other, other, other)]
    state = FriedaState("equal", [], multi)
    for seed in (0, 1, 2):
        asked = [slot for slot in range(20)
                 if multi[_candidates(state, slot, 20)[1][0]].meta["template"] == "same_area"]
        assert len(asked) >= 3
        letters = [area_letter(state, slot, 20, seed) for slot in asked]
        assert all(a != b for a, b in itertools.pairwise(letters)), letters
    starts = {area_letter(state, asked[0], 20, seed) for seed in range(6)}
    assert starts == {"A", "B"}
