"""A response that takes its own answer back (issue 33: self-corrections).

Words between two answers that take the first back (``Oops, I forgot a turn.``) make the
second the answer; without them two different answers are not one answer.
"""

from __future__ import annotations

from cartoqa.parsing import parse_route
from cartoqa.parsing.result import Invalid, Parsed
from cartoqa.parsing.text import retracts

FIRST = "Route: Start, turn left onto Alpha Street, Destination"
SECOND = ("Route: Start, turn left onto Alpha Street, turn right onto Beta Street, "
          "Destination")


def test_a_route_after_words_that_take_the_first_back_replaces_it() -> None:
    got = parse_route(f"{FIRST}\nOops, I forgot a turn.\n{SECOND}")
    assert got == Parsed({"steps": ["blue", "turn left", "Alpha Street", "turn right",
                                    "Beta Street", "red"]})


def test_two_different_routes_without_a_retraction_are_not_one_answer() -> None:
    got = parse_route(f"{FIRST}\nThe map is small.\n{SECOND}")
    assert got == Invalid("several different routes")


def test_the_words_that_take_an_answer_back() -> None:
    for text in ("Oops, I forgot the first turn.", "Wait, that misses a turn.",
                 "Let me recount.", "On second thought", "I meant the other one"):
        assert retracts(text), text
    for text in ("It then turns left.", "The route is short.", ""):
        assert not retracts(text), text
