"""A minus sign right after an answer cue is the number's sign, not the cue's dash.

Found by mapiq28b: ``My answer is -7–24`` was read as 7–24 (the cue ``Answer -`` took the
minus), so the items' own answers scored 0.975 on MapIQ's Determine Range single values.
"""

from __future__ import annotations

import pytest

from cartoqa.parsing.kinds import parse_class_numbers
from cartoqa.parsing.result import Parsed


@pytest.mark.parametrize(("text", "numbers"), [
    ("My answer is -7–24", [-7.0, 24.0]),
    ("My answer is -7 – 24.", [-7.0, 24.0]),
    ("My answer is -41–-23.8", [-41.0, -23.8]),
    ("Final answer: -3.5", [-3.5]),
    ("The answer is -0.5–2", [-0.5, 2.0]),
    # the dash as the cue's separator still works when a space follows it
    ("Final Answer - 5–10", [5.0, 10.0]),
    ("Answer - 12", [12.0]),
])
def test_a_minus_after_the_cue_is_a_sign(text: str, numbers: list[float]) -> None:
    result = parse_class_numbers(text)
    assert isinstance(result, Parsed), result
    assert result.value["numbers"] == numbers
