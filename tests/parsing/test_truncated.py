"""Truncated output: a list cut off at the end of the response is invalid (issue 24, grade24e
class: fresh24g#41, fresh7#26). Hand-written expectations, with near cases that must not change."""

from __future__ import annotations

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing.result import Invalid

MAPIQ_LIST = {"task": "mapiq_se", "request": "list"}
MAPWISE_LIST = {"task": "mapwise_list", "request": "list", "provenance": {"country": "usa"}}
SRN = {"task": "srn", "request": "route"}


def test_cut_inside_a_quoted_step_is_invalid() -> None:
    r = parse_response(SRN, 'Answer: ["blue", "turn right", "Rikhardinkatu", "Kasarmi')
    assert isinstance(r, Invalid) and r.reason.startswith("truncated")


def test_cut_inside_a_region_name_is_invalid() -> None:
    assert isinstance(parse_response(MAPIQ_LIST, "My answer is [ID, ME, MN, UT, V"), Invalid)
    assert isinstance(parse_response(MAPWISE_LIST, "My answer is [Texas, Ohio, Calif"), Invalid)


def test_open_list_of_whole_items_is_still_read() -> None:
    assert parse_response(MAPIQ_LIST, "My answer is [ID, ME, UT").value == {
        "items": ["ID", "ME", "UT"]}
    assert parse_response(SRN, "[blue, turn left, Mikonkatu, red").valid


def test_unknown_item_in_a_closed_list_invalidates_only_itself() -> None:
    r = parse_response(MAPIQ_LIST, "My answer is [ID, Atlantis, UT]")
    assert r.valid and "unknown: Atlantis" in r.value["items"]
    r = parse_response(MAPIQ_LIST, "My answer is [ID, V, UT")   # unknown, but not the last
    assert r.valid and "unknown: V" in r.value["items"]
