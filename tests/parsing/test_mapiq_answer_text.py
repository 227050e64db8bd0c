"""The answer text MapIQ's own format gives for an item, and the answer part read back.

Only the task registry's sample items reached :func:`cartoqa.parsing.mapiq.mapiq_answer_text`
and :func:`~cartoqa.parsing.mapiq.answer_part` before; the registry is no longer run for
each parser mutant (issue 33), so the format is pinned here, each request on its own.
"""

from __future__ import annotations

import pytest

from cartoqa.parsing.mapiq import answer_part, mapiq_answer_text


@pytest.mark.parametrize(("item", "text"), [
    ({"request": "binary", "answer": {"value": True}}, "My answer is [TRUE]"),
    ({"request": "binary", "answer": {"value": False}}, "My answer is [FALSE]"),
    ({"request": "mcq", "answer": {"letters": ["a", "c"]}}, "My answer is [a, c]"),
    ({"request": "list", "answer": {"items": ["Texas", "Ohio"]}}, "My answer is [Texas, Ohio]"),
    ({"request": "single", "answer": {"text": "Texas"}}, "My answer is Texas"),
])
def test_each_request_is_written_in_mapiq_s_format(item: dict, text: str) -> None:
    assert mapiq_answer_text(item) == text


def test_an_unknown_request_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"^unknown MapIQ request 'count'$"):
        mapiq_answer_text({"request": "count", "answer": {}})


@pytest.mark.parametrize(("text", "part"), [
    ("I think... My answer is [a, c].", "a, c"),
    ("My answer is Texas.", "Texas"),
    ("Texas", "Texas"),
    ("My answer is [b]. Wait, my answer is [ d ]", "d"),
    (" [x] ", "x"),
])
def test_the_answer_part_is_after_the_last_cue_without_brackets(text: str, part: str) -> None:
    assert answer_part(text) == part
