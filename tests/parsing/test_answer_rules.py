"""The answer-reading rules every suite shares (cartoqa.parsing.rules and .text), checked
across answer kinds: a rule holds for the street tasks and the thematic suites alike."""

from __future__ import annotations

import pytest

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing import Invalid, Parsed, parse_choice, parse_count
from cartoqa.parsing.kinds import Options, read_options, read_rank, read_regions
from cartoqa.parsing.rules import alternatives, drop_negated, sentence_answer
from cartoqa.parsing.text import answer_segments, clean
from groundtruth.thematic.region_names import region_names

USA = {"provenance": {"country": "usa"}}


@pytest.mark.parametrize(("text", "segments"), [
    ("The answer is 3? No, I missed two. Final answer: 5", ["5"]),
    ("Answer: A\nWait, that is the bank.\nAnswer: B", ["B"]),
    ("Answer: A\nAnswer: B", ["A", "B"]),
    ("Either could fit; I'll go with E.", ["E."]),
    ("Answer: A. Wait, actually it's B.", ["B."]),
    ("Reasoning... so my answer is [TX, CA].", ["[TX, CA]"]),
])
def test_the_last_real_cue_wins(text: str, segments: list[str]) -> None:
    assert answer_segments(clean(text)) == segments


def test_two_different_answers_without_a_correction_are_invalid_in_every_suite() -> None:
    assert isinstance(parse_count("Answer: 2\nAnswer: 3"), Invalid)
    item = {"task": "mapwise_single", "request": "single", **USA}
    assert not parse_response(item, "Answer: Texas\nAnswer: Ohio").valid
    item = {"task": "mapwise_single", "request": "single", **USA}
    assert parse_response(item, "Answer: Texas\nSorry, I misread the legend.\nAnswer: Ohio"
                          ).value == {"regions": ["OH"]}


@pytest.mark.parametrize(("task", "request_", "text"), [
    ("mapiq_rv", "binary", "...so maybe TRUE."),
    ("mapwise_binary", "binary", "Probably no."),
    ("mapwise_single", "single", "My answer is [Texas], but I'm not sure."),
    ("mapwise_rank", "rank", "Possibly Texas > Ohio > Utah"),
    ("mapwise_range", "range", "It might be [10 - 20]"),
    ("mapwise_count", "count", "maybe 4"),
    ("frieda_orientation", "cardinal", "Final answer: probably north"),
    ("frieda_border", "textual", "Final answer: perhaps Mikonkatu"),
])
def test_hedges_are_invalid_with_a_reason_in_every_suite(task: str, request_: str,
                                                         text: str) -> None:
    result = parse_response({"task": task, "request": request_, **USA, "question": ""}, text)
    assert isinstance(result, Invalid) and "hedged" in result.reason, result


def test_alternatives_and_negated_options() -> None:
    assert alternatives("Texas or Ohio", lambda s: s.strip()) is not None
    assert alternatives("Texas or texas", lambda s: s.strip().lower()) is None
    assert drop_negated("not B (bank), it is C") == ", it is C"
    options = {"A": "park", "B": "parking", "C": "pharmacy", "D": "bank", "E": "bus stop"}
    assert parse_choice("It's not A (park)... it's B.", options=options).value == {"letter": "B"}
    o = Options({"a": "x", "b": "y", "c": "z"})
    assert read_options("[a, c] (not b)", o) == Parsed({"letters": ["a", "c"]})
    assert isinstance(read_options("a or c", o), Invalid)


def test_sentences_without_a_cue() -> None:
    assert sentence_answer("Overall, the highest is Uttar Pradesh.") == "Uttar Pradesh"
    assert sentence_answer("Illinois (IL) has the highest value.") == "Illinois (IL)"
    assert sentence_answer("I cannot tell from this map") is None


def test_unknown_region_names_invalidate_only_themselves() -> None:
    found = read_regions("[Texas, Gondor, Ohio]", region_names("usa"))
    assert isinstance(found, Parsed)
    assert found.value == {"items": ["OH", "TX", "unknown: Gondor"]}
    assert "Gondor" in found.notes[0]
    ranked = read_rank("[Texas, Gondor, Ohio]", region_names("usa"))
    assert isinstance(ranked, Parsed) and ranked.value == {"ranks": {"TX": 1, "OH": 2}}


@pytest.mark.parametrize(("item", "text", "value"), [
    ({"task": "stmf", "request": "count"}, r"The final answer is $\boxed{5}$", {"count": 5}),
    ({"task": "mapwise_single", "request": "single", **USA}, r"Answer: \(\boxed{\text{Texas}}\)",
     {"regions": ["TX"]}),
    ({"task": "mapwise_rank", "request": "rank", **USA},
     "My answer is [1. Texas, 2. Ohio, 3. Utah]", {"ranks": {"TX": 1, "OH": 2, "UT": 3}}),
])
def test_boxed_answers_and_bracketed_lists_with_full_stops(item: dict[str, object], text: str,
                                                           value: dict[str, object]) -> None:
    assert parse_response(item, text) == Parsed(value)


INDIA = {"provenance": {"country": "india"}}
MCQ = {"a": "590–705", "b": "1350–1350", "c": "412–530", "d": "120–266",
       "e": "None of the above"}


@pytest.mark.parametrize(("item", "text", "value"), [
    ({"task": "mapwise_single", "request": "single", **INDIA},
     "Comparing Bihar, Uttar Pradesh and Kerala, Kerala is the darkest.", {"regions": ["KL"]}),
    ({"task": "mapwise_rank", "request": "rank", **USA},
     "Kansas has the highest value, followed by Nebraska, then New York.",
     {"ranks": {"KS": 1, "NE": 2, "NY": 3}}),
    ({"task": "mapiq_rv", "request": "mcq", "options": MCQ},
     "The correct option is (d) 120–266.", {"letters": ["d"]}),
    ({"task": "frieda_border", "request": "textual", "question": "Which borders X?"},
     "Mikonkatu borders the building on its east side.", {"names": ["Mikonkatu"]}),
])
def test_answers_in_prose_without_a_cue(item: dict[str, object], text: str,
                                        value: dict[str, object]) -> None:
    assert parse_response(item, text) == Parsed(value)
