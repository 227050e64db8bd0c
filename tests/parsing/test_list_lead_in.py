"""Words that introduce a region list or ranking (issue 24, grade24h): ``From lowest to
highest: A, B``, ``In order: A, B``, ``(lowest to highest) [A, B]``, ``Ranking (highest
first): A, B`` — the first region is never lost with the lead-in. Hand-written."""

from __future__ import annotations

from typing import Any

import pytest

from cartoqa.declarations.dispatch import parse_response


def mapwise(request: str, country: str = "china") -> dict[str, Any]:
    return {"task": f"mapwise_{request}", "request": request,
            "provenance": {"country": country}}


HIGH_FIRST = {"GD": 1, "SC": 2, "JS": 3, "TJ": 4}


@pytest.mark.parametrize("text", [
    "From lowest to highest: Tianjin, Jiangsu, Sichuan, Guangdong.",
    "Answer: From lowest to highest: Tianjin, Jiangsu, Sichuan, Guangdong",
    "My answer is (lowest to highest) [Tianjin, Jiangsu, Sichuan, Guangdong]",
    "From highest to lowest: Guangdong, Sichuan, Jiangsu, Tianjin",
    "In order: Guangdong, Sichuan, Jiangsu, Tianjin",
    "Order: Guangdong, Sichuan, Jiangsu, Tianjin",
    "Ranking (highest first): Guangdong, Sichuan, Jiangsu, Tianjin",
    "Answer (lowest first): Tianjin, Jiangsu, Sichuan, Guangdong",
    # the direction line with its own list, then the cued answer (grade24f's rule)
    "From lowest to highest: Tianjin, Jiangsu, Sichuan, Guangdong.\n\n"
    "My answer is [Guangdong, Sichuan, Jiangsu, Tianjin]",
])
def test_rank_lead_in_keeps_the_first_region(text: str) -> None:
    result = parse_response(mapwise("rank"), text)
    assert result.valid and result.value["ranks"] == HIGH_FIRST, result


@pytest.mark.parametrize(("text", "expected"), [
    ("In order: Guangdong, Sichuan", ["GD", "SC"]),
    ("From north to south: Guangdong, Sichuan", ["GD", "SC"]),
    ("Answer: Sorted alphabetically: Guangdong, Sichuan", ["GD", "SC"]),
])
def test_list_lead_in_keeps_the_first_region(text: str, expected: list[str]) -> None:
    result = parse_response(mapwise("list"), text)
    assert result.valid and result.value["items"] == expected, result


def test_a_region_before_a_colon_is_no_lead_in() -> None:
    usa = mapwise("list", "usa")
    # "In" is no Indiana; "Texas: ..." keeps Texas
    assert parse_response(usa, "In order: Texas, Ohio").value["items"] == ["OH", "TX"]
    assert parse_response(usa, "Answer: Texas: 412-530, Ohio: 590-705").value["items"] == [
        "OH", "TX"]
    assert parse_response(mapwise("single", "usa"), "Answer: Texas: the darkest").value == {
        "regions": ["TX"]}


@pytest.mark.parametrize("text", [
    "From lowest to highest: Tianjin, Jiangsu or Sichuan, Guangdong",
    "In order: maybe Guangdong, Sichuan, Jiangsu, Tianjin",
])
def test_lead_in_does_not_hide_a_hedge(text: str) -> None:
    assert not parse_response(mapwise("rank"), text).valid
