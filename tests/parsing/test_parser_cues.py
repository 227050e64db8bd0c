"""What a reader relies on when a response marks its answer with a cue (``Answer:``):
the cued answer decides, even when the reasoning before it says something else, and a
hedged or self-contradicting cued answer is invalid, with a reason that says why.

Hand-written responses; each case is one a model really writes in some form.
"""

from __future__ import annotations

import json

import pytest

from cartoqa.parsing import Invalid, Parsed
from cartoqa.parsing.choice import parse_choice
from cartoqa.parsing.lists import parse_names, parse_roads
from cartoqa.parsing.mapiq import parse_items, parse_numbers
from cartoqa.parsing.multi import parse_multi
from cartoqa.parsing.numbers import parse_count, parse_length
from cartoqa.parsing.route import parse_route
from cartoqa.parsing.yesno import parse_yes_no


def _present(text: str) -> bool:
    parsed = parse_yes_no(text)
    assert isinstance(parsed, Parsed), (text, parsed)
    return bool(parsed.value["present"])


@pytest.mark.parametrize(
    ("text", "present"),
    [
        # the reasoning contradicts itself; the cued answer decides
        ("I cannot see a green cross at first.\nAnswer: there is a pharmacy by the park.",
         True),
        ("There is a cross, and yes, it looks medical.\nAnswer: not present", False),
        ("There is a cross, and yes, it looks medical.\nAnswer: absent", False),
        ("I cannot see one, no.\nAnswer: present", True),
        ("I cannot see one, no.\nAnswer: I would say yes.", True),
        ("There is a cross, yes.\nAnswer: I would say no.", False),
    ],
)
def test_the_cued_answer_decides(text: str, present: bool) -> None:
    assert _present(text) is present


def test_a_cued_sentence_without_yes_or_no_is_read_and_flagged() -> None:
    parsed = parse_yes_no("I cannot see a green cross at first.\n"
                          "Answer: there is a pharmacy by the park.")
    assert parsed == Parsed({"present": True}, ("read from a sentence without yes/no",))
    parsed = parse_yes_no("There is a cross, yes.\nAnswer: I did not find any pharmacy.")
    assert parsed == Parsed({"present": False}, ("read from a sentence without yes/no",))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("There is a cross.\nAnswer: probably yes", "hedged"),
        ("Yes, a cross.\nAnswer: it might be there", "hedged"),
        ("I looked twice.\nAnswer: I would say yes and also no", "both yes and no"),
    ],
)
def test_a_hedged_or_double_cued_answer_is_invalid(text: str, reason: str) -> None:
    parsed = parse_yes_no(text)
    assert isinstance(parsed, Invalid)
    assert reason in parsed.reason


# -- yes/no in JSON: the answer key decides over words elsewhere -----------------------

def test_a_json_answer_key_decides_over_words_elsewhere() -> None:
    text = '{"answer": "not present", "reason": "yes, I looked at every symbol"}'
    assert _present(text) is False


# -- multiple choice --------------------------------------------------------------------

OPTIONS = {"A": "bank", "B": "parking", "C": "pharmacy", "D": "bicycle parking", "E": "park"}


def _letter(text: str, options: dict[str, str] | None = None) -> str:
    parsed = parse_choice(text, options=options)
    assert isinstance(parsed, Parsed), (text, parsed)
    return str(parsed.value["letter"])


def test_choice_option_word_after_the_cue() -> None:
    assert _letter("I looked at the icon.\nAnswer: option c the pharmacy") == "C"


def test_choice_a_long_cued_sentence_with_one_bracketed_letter() -> None:
    text = ("I looked at the icon.\nAnswer: the icon in the middle of the map, a green cross "
            "on a white field, matches (C) here")
    assert len(text.split("Answer: ")[1]) > 80
    assert _letter(text) == "C"


def test_choice_a_cued_label_decides_over_labels_in_the_reasoning() -> None:
    text = "Pharmacy or bank? The bank icon is blue.\nAnswer: the pharmacy"
    assert _letter(text, {"A": "bank", "C": "pharmacy"}) == "C"


def test_choice_the_longer_label_wins_over_the_label_inside_it() -> None:
    parsed = parse_choice("It is bicycle parking.", options=OPTIONS)
    assert parsed == Parsed({"letter": "D"}, ("matched by option label",))
    # a blank label never matches, and does not stop the others from matching
    assert _letter("It is a pharmacy.", {"A": " ", "C": "pharmacy"}) == "C"


def test_choice_invalid_reasons_say_why() -> None:
    cues = parse_choice("Answer: B\nAnswer: C")
    assert isinstance(cues, Invalid) and "letters" in cues.reason
    either = parse_choice("B or C")
    assert isinstance(either, Invalid) and either.reason == "alternatives (B or C), not one letter"


# -- routes -----------------------------------------------------------------------------

ROUTE = ["blue", "turn left", "Annankatu", "red"]


def _steps(text: str) -> list[str]:
    parsed = parse_route(text)
    assert isinstance(parsed, Parsed), (text, parsed)
    return list(parsed.value["steps"])


def test_route_the_complete_list_wins_over_a_partial_one() -> None:
    text = ("Answer: [blue, turn left, Annankatu, red] (the first leg alone would be "
            "[blue, turn left, Annankatu])")
    assert _steps(text) == ROUTE


def test_route_a_cued_partial_list_is_kept_as_written() -> None:
    assert _steps("Answer: [turn left, Annankatu, red]") == ["turn left", "Annankatu", "red"]


def test_route_a_hedge_on_the_line_of_the_list_is_invalid() -> None:
    parsed = parse_route("Let me look.\nMaybe [blue, turn left, Annankatu, red]")
    assert isinstance(parsed, Invalid) and "hedged" in parsed.reason


def test_route_a_line_that_only_introduces_the_route_is_not_part_of_it() -> None:
    assert _steps("To get from blue to red:\nblue, turn left, Annankatu, red") == ROUTE


def test_route_label_line_decides_over_sentences_naming_the_markers() -> None:
    text = ("From the blue marker I head to the red one.\n"
            "Route: blue, turn left, Annankatu, red")
    assert _steps(text) == ROUTE


@pytest.mark.parametrize("key", ["final_answer", "navigation"])
def test_route_json_answer_key_decides_over_other_lists(key: str) -> None:
    text = json.dumps({key: ROUTE, "considered": ["blue", "turn right", "Bulevardi", "red"]})
    assert _steps(text) == ROUTE


def test_route_quoted_elements_lose_their_quotes() -> None:
    assert _steps('Answer: blue, "turn left", "Annankatu", red') == ROUTE


def test_route_a_list_of_road_names_only_is_not_a_route() -> None:
    parsed = parse_route("Answer: Annankatu, Bulevardi")
    assert isinstance(parsed, Invalid) and "no marker and no action" in parsed.reason


# -- lengths and counts -----------------------------------------------------------------

def test_length_in_another_unit_is_converted_and_says_so() -> None:
    parsed = parse_length("I measured the path.\nAnswer: 160 m", unit="ft")
    assert isinstance(parsed, Parsed)
    assert parsed.value["value"] == pytest.approx(160 / 0.3048)
    assert parsed.value["raw_value"] == 160 and parsed.value["raw_unit"] == "m"
    assert parsed.notes == ("converted 160 m to ft",)


def test_count_alternatives_in_the_text_are_invalid_with_the_numbers() -> None:
    parsed = parse_count("Looking at the map, there are 4 or 5 restaurants near the park.")
    assert isinstance(parsed, Invalid) and "4 or 5" in parsed.reason


# -- several feature types (MTMF) -------------------------------------------------------

TYPES = ["restaurant", "coffee shop", "fitness centre", "bus stop", "atm"]


def _types(text: str) -> dict[str, dict[str, object]]:
    parsed = parse_multi(text, types=TYPES)
    assert isinstance(parsed, Parsed), (text, parsed)
    return dict(parsed.value["types"])


def test_multi_rows_keyed_by_feature_type() -> None:
    rows = '[{"feature_type": "restaurant", "count": 2}, {"feature_type": "atm", "count": 1}]'
    assert _types(rows)["restaurant"]["count"] == 2
    assert _types(rows)["atm"]["count"] == 1


def test_multi_count_under_n_and_names_as_one_string() -> None:
    types = _types('{"restaurant": {"n": 2}, "bus stop": {"names": "Kamppi, Lasipalatsi"}}')
    assert types["restaurant"]["count"] == 2
    assert types["bus stop"] == {"count": 2, "names": ["Kamppi", "Lasipalatsi"]}


def test_multi_unknown_keys_are_ignored_with_a_note() -> None:
    parsed = parse_multi('{"restaurant": 1, "cats": 3, "atm": 0}', types=TYPES)
    assert isinstance(parsed, Parsed)
    assert "ignored unknown keys: cats" in parsed.notes


def test_multi_without_json_or_type_lines_says_so() -> None:
    parsed = parse_multi("I see some restaurants.", types=TYPES)
    assert isinstance(parsed, Invalid) and "JSON" in parsed.reason


# -- road names (MML) -------------------------------------------------------------------

def test_roads_under_a_known_key_of_a_json_object() -> None:
    text = '{"reasoning": ["Mannerheimintie"], "roads": ["Annankatu", "Bulevardi"]}'
    assert parse_roads(text) == Parsed({"roads": ["Annankatu", "Bulevardi"]})


def test_roads_the_cued_pair_decides_over_the_reasoning() -> None:
    text = "The marker is near Bulevardi.\nAnswer: Annankatu and Iso Roobertinkatu"
    parsed = parse_roads(text)
    assert isinstance(parsed, Parsed)
    assert parsed.value["roads"] == ["Annankatu", "Iso Roobertinkatu"]


# -- MapIQ ------------------------------------------------------------------------------

def test_mapiq_an_empty_list_or_none_is_an_empty_answer() -> None:
    assert parse_items("My answer is []") == Parsed({"items": []})
    assert parse_items("My answer is [ ]") == Parsed({"items": []})


def test_mapiq_three_numbers_are_not_a_class_or_range() -> None:
    parsed = parse_numbers("My answer is 1, 2 and 3")
    assert isinstance(parsed, Invalid) and "one class or one range" in parsed.reason


# -- names (STMF) -----------------------------------------------------------------------

def test_names_from_the_name_column_of_a_table() -> None:
    table = "| Name | Cuisine |\n|---|---|\n| Savotta | Finnish |\n| Kuu | Finnish |"
    assert parse_names(table) == Parsed({"names": ["Savotta", "Kuu"]})


def test_names_after_a_label_on_one_line() -> None:
    assert parse_names("Restaurants: Savotta, Kuu") == Parsed({"names": ["Savotta", "Kuu"]})


def test_names_in_a_code_fence() -> None:
    assert parse_names("```text\nSavotta\nKuu\n```") == Parsed({"names": ["Savotta", "Kuu"]})


def test_names_lose_quotes_around_them_before_a_full_stop() -> None:
    assert parse_names("- 'Savotta'.\n- 'Kuu'.") == Parsed({"names": ["Savotta", "Kuu"]})


def test_names_in_the_block_below_an_empty_cue() -> None:
    assert parse_names("I see two.\nAnswer:\nSavotta\nKuu") == \
        Parsed({"names": ["Savotta", "Kuu"]})


def test_names_invalid_reasons() -> None:
    empty = parse_names("")
    assert isinstance(empty, Invalid) and "empty" in empty.reason
    two = parse_names("Answer: Savotta, Kuu\nAnswer: Kuu")
    assert isinstance(two, Invalid) and "lists" in two.reason


def test_roads_as_numbered_keys_of_a_json_object() -> None:
    assert parse_roads('{"road_1": "Annankatu", "road_2": "Bulevardi"}') == \
        Parsed({"roads": ["Annankatu", "Bulevardi"]})


# -- what every parser shares -----------------------------------------------------------

def test_a_note_on_the_second_line_is_not_part_of_the_answer() -> None:
    assert _present("There is no pharmacy.\nNote: yes, I checked twice.") is False


def test_only_the_text_after_the_reasoning_block_counts() -> None:
    assert _present("<think>I thought yes at first</think>No.") is False


def test_a_narrow_space_before_the_unit_is_a_space() -> None:
    parsed = parse_length("Answer: 1.2\u202fkm", unit="m")
    assert isinstance(parsed, Parsed) and parsed.value["value"] == pytest.approx(1200.0)


def test_escaped_quotes_inside_a_json_string() -> None:
    assert _letter('{"reason": "the \\"cross\\" icon", "answer": "C"}') == "C"


def test_a_count_ending_in_and_does_not_raise() -> None:
    # fix24zz (grade24zf's fresh24zf#23 class): a count cut off mid-sentence is no answer
    # ("one hundred and" may have gone on to "one hundred and five"); it was read as 100
    r = parse_count("I count one hundred and")
    assert isinstance(r, Invalid) and r.reason.startswith("truncated")


@pytest.mark.parametrize(
    "text",
    ["Walking 300 m from blue, then 220 m to red.\nThe path is 520 m long.",
     "Answer: 520 m\nThe first leg alone is 300 m."],
)
def test_length_the_cue_or_the_last_line_decides_between_several(text: str) -> None:
    parsed = parse_length(text, unit="m")
    assert isinstance(parsed, Parsed) and parsed.value["value"] == 520.0


def test_length_a_hedged_one_line_answer_is_invalid() -> None:
    parsed = parse_length("The path is probably 520 m long.", unit="m")
    assert isinstance(parsed, Invalid) and "hedged" in parsed.reason


def test_route_without_any_list_says_so() -> None:
    parsed = parse_route("I do not know the way.")
    assert isinstance(parsed, Invalid) and parsed.reason == "no route list found"


@pytest.mark.parametrize(
    ("text", "present"),
    [("Not present.", False), ("Yes, there is one, although it is not large.", True),
     ("Yes. The pharmacy is not far from the park.", True)],
)
def test_not_present_is_no_and_a_later_not_does_not_flip_yes(text: str, present: bool) -> None:
    assert _present(text) is present


def test_route_an_uncued_partial_list_is_kept_as_written() -> None:
    assert _steps("I would go [turn left, Annankatu, red].") == ["turn left", "Annankatu", "red"]


def test_route_of_two_partial_lists_after_the_cue_the_last_counts() -> None:
    text = "Answer: [turn left, Annankatu] then [turn right, Bulevardi, red]"
    assert _steps(text) == ["turn right", "Bulevardi", "red"]


# -- what a user reads about a response, and responses as models format them ----------

def test_refusals_name_the_reason_in_the_words_of_the_response() -> None:
    assert parse_yes_no("") == Invalid("empty response")
    assert parse_yes_no("   \n") == Invalid("empty response")
    # the hedge is quoted in lower case, as a reason a reader scans down a report
    assert parse_length("It Might Be 300 m") == Invalid("a hedged answer (might be)")


def test_no_break_spaces_tabs_and_headings_do_not_change_an_answer() -> None:
    from cartoqa.parsing.text import normalize_text, strip_markdown

    assert normalize_text("Answer:\u00a0Main\u00a0Street\tand\u202fHigh Street") == (
        "Answer: Main Street and High Street")
    assert strip_markdown("## Final answer\nC\n### Why\nbecause") == (
        "Final answer\nC\nWhy\nbecause")


def test_a_fenced_json_answer_is_read_before_the_prose() -> None:
    from cartoqa.parsing.structured import find_structured

    text = 'Here you go:\n```json\n{"roads": ["A", "B"]}\n```\nHope it helps.'
    assert find_structured(text) == {"roads": ["A", "B"]}
    # code fences are searched first: a value in the prose after it does not win
    assert find_structured('Sure.\n```\n{"a": 1}\n```\nor maybe {"a": 2}') == {"a": 1}
    # a fence holding prose around the value still gives the value
    assert find_structured('```\nThe answer is {"a": 1} as asked.\n```') == {"a": 1}
