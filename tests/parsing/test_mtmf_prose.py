"""MTMF answered in prose (issue 24, grade24h): read per type only when the prose covers
every type (names them all, or says the others are absent). Hand-written expectations."""

from __future__ import annotations

from typing import Any

import pytest

from cartoqa.declarations.dispatch import parse_response

TYPES = ["restaurant", "coffee shop", "park", "bank", "bus stop", "fast food"]


def item(types: list[str] = TYPES) -> dict[str, Any]:
    return {"task": "mtmf", "request": "all",
            "answer": {"types": {t: {"count": 0, "names": []} for t in types}}}


def read(text: str, types: list[str] = TYPES) -> dict[str, tuple[int, list[str]]] | None:
    result = parse_response(item(types), text)
    if not result.valid:
        return None
    return {t: (v["count"], v["names"]) for t, v in result.value["types"].items() if v["count"]}


@pytest.mark.parametrize(("text", "expected"), [
    ("I can see one restaurant (Family), one coffee shop (Espresso edge) and one park. "
     "None of the other feature types appear on this map.",
     {"restaurant": (1, ["Family"]), "coffee shop": (1, ["Espresso edge"]), "park": (1, [])}),
    ("There are two restaurants (Kuu, Hiisi) and 3 bus stops. No other types are visible.",
     {"restaurant": (2, ["Kuu", "Hiisi"]), "bus stop": (3, [])}),
    ("The map shows a bank (Nordea) and two cafés (Ekberg, Kaffa). All other types: 0.",
     {"bank": (1, ["Nordea"]), "coffee shop": (2, ["Ekberg", "Kaffa"])}),
    ("I see one park (unnamed) and nothing else.", {"park": (1, [])}),
    # every type named: no "the rest" sentence needed
    ("One restaurant (Kuu), no coffee shops, one park, zero banks, two bus stops and "
     "no fast food places.",
     {"restaurant": (1, ["Kuu"]), "park": (1, []), "bus stop": (2, [])}),
])
def test_prose_that_covers_the_types_is_read(text: str, expected: dict[str, Any]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize("text", [
    # the other types are left unsaid
    "I can see one restaurant (Family) and one park.",
    # hedges, alternatives and contradictions stay invalid
    "I can see maybe two restaurants and one park. None of the other types appear.",
    "There are 2 or 3 restaurants and one park; no other types.",
    "There are two restaurants and one park. Actually there are three restaurants. "
    "No other types.",
    "I cannot read this map.",
])
def test_prose_that_does_not_cover_the_types_is_invalid(text: str) -> None:
    assert read(text) is None


def test_json_still_wins_over_prose() -> None:
    text = ('I see one park and nothing else.\n```json\n{"park": {"count": 2, "names": []}}\n```')
    assert read(text) == {"park": (2, [])}
