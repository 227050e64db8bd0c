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


# ---- classes found by the independent fresh set of session grade24d (fresh24e, fresh5)
FRIEDA_Q = ("Which of the features other than Aikatalo borders Aikatalo (the building), "
            "drawn in red? Answer with its name.")


@pytest.mark.parametrize(("item", "text"), [
    ({"task": "mapiq_sc", "request": "binary"}, "...so I'd lean towards FALSE."),
    ({"task": "mapwise_binary", "request": "binary", **USA}, "Leaning towards Yes."),
    ({"task": "stmf", "request": "count", "strata": {"feature_type": "bank"}},
     "Tentatively 3."),
    ({"task": "frieda_border", "request": "textual", "question": FRIEDA_Q},
     "I lean towards Mikonkatu."),
])
def test_leaning_towards_an_answer_is_a_hedge_in_every_suite(item: dict[str, object],
                                                            text: str) -> None:
    assert not parse_response(item, text).valid


def test_a_serial_and_before_the_last_option_names_it() -> None:
    o = Options({"a": "ID", "b": "IN", "c": "MN", "d": "WY", "e": "None of the above"})
    assert read_options("[a, c, and d]", o).value == {"letters": ["a", "c", "d"]}
    assert read_options("[a, c & d]", o).value == {"letters": ["a", "c", "d"]}
    assert not read_options("[a, c, or d]", o).valid


def test_lowest_to_highest_describing_a_chain_does_not_reverse_the_answer_list() -> None:
    item = {"task": "mapwise_rank", "request": "rank", **USA}
    chain = "From lowest to highest: New York < Nebraska < Kansas.\n\nMy answer is [KS, NE, NY]"
    assert parse_response(item, chain).value == {"ranks": {"KS": 1, "NE": 2, "NY": 3}}
    plain = "From lowest to highest:\nMy answer is [NY, NE, KS]"
    assert parse_response(item, plain).value == {"ranks": {"KS": 1, "NE": 2, "NY": 3}}


@pytest.mark.parametrize(("item", "text", "value"), [
    ({"task": "frieda_equal", "request": "textual",
      "question": "Map 2 outlines two areas, A and B. Answer A or B."},
     "The answer is B because it has the same shape.", {"names": ["B"]}),
    ({"task": "mapwise_single", "request": "single", **USA},
     "The state with the highest value is Texas, since it is the darkest.", {"regions": ["TX"]}),
])
def test_a_reason_after_an_answer_in_a_sentence_is_left_out(item: dict[str, object],
                                                            text: str,
                                                            value: dict[str, object]) -> None:
    assert parse_response(item, text).value == value


@pytest.mark.parametrize(("item", "text", "value"), [
    ({"task": "frieda_intersect", "request": "textual",
      "question": "Which of the features other than Hevonen partly overlaps Hevonen "
                  "(the city block)?"},
     "Which of the features other than Hevonen partly overlaps Hevonen? Ahven.",
     {"names": ["Ahven"]}),
    ({"task": "stmf", "request": "count", "strata": {"feature_type": "bank"}},
     "How many banks are shown on this map? 3", {"count": 3}),
])
def test_the_question_repeated_before_the_answer_is_skipped(item: dict[str, object],
                                                           text: str,
                                                           value: dict[str, object]) -> None:
    assert parse_response(item, text).value == value


def test_the_question_feature_as_the_subject_of_a_relation_is_not_the_answer() -> None:
    item = {"task": "frieda_border", "request": "textual", "question": FRIEDA_Q}
    assert parse_response(item, "Aikatalo borders Mikonkatu.").value == {"names": ["Mikonkatu"]}
    assert parse_response(item, "Answer: Aikatalo").value == {"names": ["Aikatalo"]}
    assert parse_response(item, "Mikonkatu borders Aikatalo.").value == {"names": ["Mikonkatu"]}


def test_a_route_told_in_prose_ends_at_the_marker_it_reaches() -> None:
    text = ("From the blue marker, turn left onto Pohjoisesplanadi, then continue straight "
            "onto Lönnrotinkatu until you reach the red marker.")
    assert parse_response({"task": "srn", "request": "route"}, text).value == {"steps": [
        "blue", "turn left", "Pohjoisesplanadi", "continue straight", "Lönnrotinkatu", "red"]}


def test_the_count_of_a_type_line_keeps_an_and_inside_its_last_name() -> None:
    types = ["restaurant", "bank"]
    item = {"task": "mtmf", "request": "all",
            "answer": {"types": {t: {"count": 0, "names": []} for t in types}}}
    text = "- restaurant: 3 (Toca, Day & Nite Sushi Bar, Bank bar and bistro)\n- bank: 0"
    got = parse_response(item, text).value["types"]["restaurant"]
    assert got == {"count": 3, "names": ["Toca", "Day & Nite Sushi Bar", "Bank bar and bistro"]}
    text = "- restaurant: 3 (Toca, Kuu and Savotta)\n- bank: 0"
    assert parse_response(item, text).value["types"]["restaurant"]["names"] == [
        "Toca", "Kuu", "Savotta"]


# ---- classes found by the sixth fresh set (fresh24f, thematic/fresh6)
def test_one_length_in_two_units_is_read_in_the_unit_asked() -> None:
    item = {"task": "rle", "request": "length", "answer": {"value": 1.0, "unit": "ft"}}
    text = "The blue path is approximately 150 meters long, which is about 490 ft."
    assert parse_response(item, text).value["value"] == 490
    assert parse_response(item, "Answer: 150 m (about 490 ft)").value["value"] == 490
    item = {"task": "frieda_distance", "request": "distance", "question": "How far apart?"}
    assert parse_response(item, "Answer: 0.3 km (300 m)").valid


def test_doubt_after_a_cued_route_list_is_a_hedge() -> None:
    text = ('Answer: ["blue", "turn left", "Kaivokatu", "red"] (not fully sure about the '
            'one-way direction)')
    assert not parse_response({"task": "srn", "request": "route"}, text).valid
    text = 'Answer: ["blue", "turn left", "Kaivokatu", "red"]'
    assert parse_response({"task": "srn", "request": "route"}, text).valid


def test_an_option_named_as_the_subject_of_its_answer_sentence() -> None:
    item = {"task": "frieda_equal", "request": "textual",
            "question": "One map outlines two areas, Area A and Area B. Answer A or B."}
    assert parse_response(item, "Answer: Area A is the same as Hauki.").value == {
        "names": ["A"]}
    assert parse_response(item, "Area B matches Hauki exactly.").value == {"names": ["B"]}
    assert not parse_response(item, "Answer: Area A is larger than Hauki.").valid
