"""The reason a user reads when an answer cannot be scored, word for word (issue 33).

Fresh seed 3303 left mutants that upper-case or drop these reasons alive.
"""

from __future__ import annotations

from cartoqa.parsing import parse_length, parse_route
from cartoqa.parsing.mapwise import parse_region
from cartoqa.parsing.result import Invalid


def test_an_empty_route_answer_says_so() -> None:
    assert parse_route("") == Invalid("empty response")
    assert parse_route("   ") == Invalid("empty response")


def test_two_lengths_given_as_answers_are_named_as_lengths() -> None:
    assert parse_length("Answer: 120 m\nAnswer: 300 m") == Invalid("several different lengths")


def test_a_region_not_on_the_map_says_so() -> None:
    got = parse_region({"provenance": {"country": "china"}}, "Atlantis")
    assert got == Invalid("no region of this map")
