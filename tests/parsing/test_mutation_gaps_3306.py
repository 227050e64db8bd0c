"""What a careful grader reads, for the survivors of parsing's fresh sample (seed 3306).

Written by class (issue 33), not one test per mutant: the reason a user reads, markdown
tables (columns found by their headers, the rule line), a sentence answer among three
sentences, ``#`` comments in JSON, option keys. Expectations are written by hand.
"""

from __future__ import annotations

import pytest

from cartoqa.parsing.choice import parse_choice
from cartoqa.parsing.kinds import option_key
from cartoqa.parsing.lists import parse_roads
from cartoqa.parsing.mapwise import parse_range_answer, parse_region_list
from cartoqa.parsing.multi import _from_lines, _from_table
from cartoqa.parsing.result import Invalid
from cartoqa.parsing.rules import sentence_answer
from cartoqa.parsing.structured import _strip_comments, find_structured
from cartoqa.parsing.tables import answer_column, find_table

KNOWN = {"bank": "bank", "cafe": "cafe"}


# --- the reason a user reads ---------------------------------------------------------

@pytest.mark.parametrize(("call", "reason"), [
    (lambda: parse_choice("   "), "empty response"),
    (lambda: parse_roads(None), "empty response"),  # not a string: nothing read as a road
    (lambda: parse_range_answer({}, "I see a map."), "no range of two numbers"),
    (lambda: parse_region_list({"provenance": {"country": "usa"}}, "I see a map."),
     "no list"),
])
def test_reason_word_for_word(call, reason):
    got = call()
    assert isinstance(got, Invalid)
    assert got.reason == reason


# --- option keys ------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Kerala.", " Kerala;: ", "Kerala:"])
def test_option_key_drops_trailing_punctuation(text):
    assert option_key(text) == "kerala"


# --- tables: columns found by their headers -------------------------------------------

def test_table_category_header_not_first():
    text = "| Count | Category | Names |\n|---|---|---|\n| 1 | Bank | Nordea |"
    assert _from_table(text, KNOWN) == {"Bank": {"count": 1, "names": ["Nordea"]}}


def test_table_count_header_last():
    text = "| Type | Names | Count |\n|---|---|---|\n| Bank | Nordea, OP | 3 |"
    # the count is the "Count" column's 3, not the number of names
    assert _from_table(text, KNOWN) == {"Bank": {"count": 3, "names": ["Nordea", "OP"]}}


def test_table_label_header_chooses_among_name_like_columns():
    text = ("| Type | Count | Street | Label |\n|---|---|---|---|\n"
            "| Bank | 1 | Mikonkatu | Nordea |")
    assert _from_table(text, KNOWN) == {"Bank": {"count": 1, "names": ["Nordea"]}}


def test_type_lines_give_count_and_names():
    assert _from_lines("Bank: 2 (Nordea, OP)", KNOWN) == {
        "Bank": {"count": 2, "names": ["Nordea", "OP"]}}


def test_table_starting_with_a_rule_line_has_no_header():
    t = find_table(["|---|---|", "| A | B |", "| 1 | x |"])
    assert t is not None
    assert t.header == ()
    assert t.rows == (("A", "B"), ("1", "x"))


def test_second_rule_line_does_not_make_a_body_row_a_header():
    t = find_table(["| A | B |", "|---|---|", "| 1 | x |", "|---|---|", "| 2 | y |"])
    assert t is not None
    assert t.header == ("A", "B")
    assert t.rows == (("1", "x"), ("2", "y"))


def test_named_column_kept_when_no_column_reads_as_answer():
    t = find_table(["| Name | Distance |", "|---|---|", "| 120 | 5 |"])
    got = answer_column(t, heads=lambda h: "name" in h.lower(),
                        reads=lambda c: not c[:1].isdigit())
    assert got == ["120"]


# --- sentences, comments ------------------------------------------------------------------

def test_sentence_answer_is_the_last_of_three():
    text = "Kerala is darkest. Tamil Nadu is lighter. So the answer is Goa."
    assert sentence_answer(text) == "Goa"
    # a middle sentence is never tried: the last one answers, not the second
    assert sentence_answer("I looked. The answer is Kerala. The answer is Goa.") == "Goa"


def test_hash_comments_stripped_from_json():
    assert _strip_comments('{"a": 1 # note\n}') == '{"a": 1\n}'
    assert find_structured('{"a": 1, # note\n "b": 2}') == {"a": 1, "b": 2}


# --- regions: a multi-word name before a verb, an empty strict list ---------------------

@pytest.fixture(scope="module")
def usa():
    from groundtruth.thematic.region_names import region_names

    return region_names("usa")


def test_two_word_region_before_a_verb(usa):
    from cartoqa.parsing.kinds import _resolve_region

    assert _resolve_region("New York has the highest value", usa, ()) == ["NY"]


def test_empty_list_read_strictly_is_no_answer(usa):
    from cartoqa.parsing.kinds import read_regions

    # read whole without a cue, "[]" is not taken as the empty list
    assert read_regions("[]", usa, strict=True) is None


# --- counts and lengths ------------------------------------------------------------------

def test_length_in_centimetres_only_is_the_answer():
    from cartoqa.parsing.numbers import parse_length

    got = parse_length("The line measures 3 cm on the image.")
    assert got.value == {"value": 0.03, "unit": "m", "raw_value": 3.0, "raw_unit": "cm"}


def test_unitless_length_in_words_is_not_read():
    from cartoqa.parsing.numbers import parse_length

    # digits only: "two hundred" with no unit is not taken for 200 m
    assert parse_length("Answer: two hundred") == Invalid("no length found")


@pytest.mark.parametrize("text", [
    "120 m\nI compared it with 50 m and 200 m stretches.",
    "~120 m\nIt is longer than 50 m but shorter than 200 m.",
])
def test_bare_length_on_the_first_line_is_the_answer(text):
    from cartoqa.parsing.numbers import parse_length

    assert parse_length(text).value["value"] == 120.0


def test_count_from_the_last_line_when_the_body_has_several():
    from cartoqa.parsing.numbers import parse_count

    assert parse_count("Top: 3, bottom: 4\n7").value == {"count": 7}


# --- cue rules ------------------------------------------------------------------------------

def test_cued_answer_loses_a_trailing_colon():
    from cartoqa.parsing.text import answer_segments

    assert answer_segments("Answer: Kerala:") == ["Kerala"]
