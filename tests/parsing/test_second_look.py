"""An explicit correction ("On second look, ...") before a later answer makes the later one
win (issue 24, grade24e class: fresh7#8). Hand-written expectations, with near cases."""

from __future__ import annotations

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing.result import Invalid

BINARY = {"task": "mapiq_se", "request": "binary"}


def test_second_look_corrects() -> None:
    text = ("My answer is [FALSE]\n\nOn second look, DC is the only dark-red unit.\n"
            "My answer is [TRUE]")
    assert parse_response(BINARY, text).value == {"value": True}
    text = "My answer is [TRUE]\nOn closer inspection it is not.\nMy answer is [FALSE]"
    assert parse_response(BINARY, text).value == {"value": False}


def test_two_answers_without_correction_stay_invalid() -> None:
    text = "My answer is [FALSE]\nDC is the only dark-red unit.\nMy answer is [TRUE]"
    assert isinstance(parse_response(BINARY, text), Invalid)
