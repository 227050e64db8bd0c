"""A MapIQ/MapWise region list given as bullets under an introducing line, with no cue, is
read whole (issue 24, grade24e class: fresh7#24). Hand-written expectations, near cases."""

from __future__ import annotations

from cartoqa.declarations.dispatch import parse_response

MAPIQ_LIST = {"task": "mapiq_se", "request": "list"}


def items(text: str) -> list[str]:
    return sorted(parse_response(MAPIQ_LIST, text).value["items"])


def test_all_bullets_are_read() -> None:
    text = ("The West states in the 284–389 class are:\n- Colorado (CO)\n- Montana (MT)\n"
            "- Washington (WA)")
    assert items(text) == ["CO", "MT", "WA"]


def test_a_cue_still_wins_over_bullets() -> None:
    text = "Candidates:\n- Colorado\n- Montana\nMy answer is [WA]"
    assert items(text) == ["WA"]
