"""Short region forms (issue 24, grade24h; grade24g classes B and J): codes written with
dots or ``&`` (``N.J.``, ``M.P.``, ``J&K``), AP-style US abbreviations (``Pa.``,
``Calif.``, from the ``us`` package) and a leading article before a zone (``the South``).
Hand-written expectations."""

from __future__ import annotations

import pytest

from cartoqa.declarations.dispatch import parse_response
from groundtruth.thematic.region_names import region_names


@pytest.mark.parametrize(("country", "text", "code"), [
    ("usa", "N.J.", "NJ"), ("usa", "N.Y.", "NY"), ("usa", "Pa.", "PA"),
    ("usa", "Calif.", "CA"), ("usa", "W.Va.", "WV"), ("usa", "Mass.", "MA"),
    ("india", "M.P.", "MP"), ("india", "U.P.", "UP"), ("india", "J&K", "JK"),
    ("india", "J and K", "JK"), ("india", "H.P.", "HP"),
])
def test_short_forms_resolve(country: str, text: str, code: str) -> None:
    assert region_names(country).resolve(text) == code


@pytest.mark.parametrize(("country", "text"), [
    ("usa", "Q.Z."),        # no such code
    ("india", "Pa."),       # an AP abbreviation only on the USA map
    ("usa", "Atlantis"),
])
def test_near_forms_stay_unknown(country: str, text: str) -> None:
    assert region_names(country).resolve(text) is None


def test_in_answers() -> None:
    usa = {"task": "mapwise_list", "request": "list", "provenance": {"country": "usa"}}
    assert parse_response(usa, "My answer is [N.J., N.Y., Pa.]").value == {
        "items": ["NJ", "NY", "PA"]}
    assert parse_response(usa, "My answer is [Calif., W.Va., Texas]").value == {
        "items": ["CA", "TX", "WV"]}
    # a name cut short is no abbreviation (truncated output, docs/scoring.md)
    assert not parse_response(usa, "My answer is [Texas, Ohio, Calif").valid
    india = {"task": "mapwise_single", "request": "single", "provenance": {"country": "india"}}
    assert parse_response(india, "My answer is [J&K]").value == {"regions": ["JK"]}
    # "M.P. or U.P." stays alternatives
    assert not parse_response(india, "My answer is [M.P. or U.P.]").valid


def test_leading_article_before_a_zone() -> None:
    item = {"task": "mapiq_rv", "request": "list",
            "options": None, "provenance": {"classification": {"labels": []}},
            "answer": {"text": ""}}
    got = parse_response(item, "My answer is [the South]")
    assert got.valid and got.value["items"] == ["South"], got
    assert parse_response(item, "My answer is [the Midwest, the West]").value["items"] == [
        "Midwest", "West"]
