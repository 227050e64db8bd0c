"""Alternatives (``A or B``) are invalid in every suite; several counts of different
kinds are invalid unless the question's feature type picks one; doubt added in brackets
after an answer is a hedge (issue 24, third session)."""

from __future__ import annotations

import pytest

from cartoqa.parsing import Invalid, Parsed
from cartoqa.parsing.cardinal import parse_cardinal
from cartoqa.parsing.choice import parse_choice
from cartoqa.parsing.lists import parse_names
from cartoqa.parsing.mapiq import parse_binary, parse_items, parse_letters, parse_numbers
from cartoqa.parsing.mapwise import (
    parse_count_answer,
    parse_range_answer,
    parse_rank,
    parse_region,
)
from cartoqa.parsing.numbers import parse_count, parse_length
from cartoqa.parsing.textual import parse_textual
from cartoqa.parsing.yesno import parse_yes_no
from cartoqa.tasks.cartomapqa.stmf import parse_count_of_type

INDIA = {"provenance": {"country": "india"}}
USA = {"provenance": {"country": "usa"}}
EQUAL_Q = "Map 2 outlines two areas, A and B. Which is it? Answer A or B."


@pytest.mark.parametrize("read", [
    lambda: parse_range_answer({}, "My answer is [1k - 2k] or [3k - 4k]"),
    lambda: parse_letters("My answer is [a] or [c]", {"a": "x", "b": "y", "c": "z"}),
    lambda: parse_items("My answer is [TX, CA] or [TX, NY]"),
    lambda: parse_items("My answer is [TX, CA or NY]"),
    lambda: parse_numbers("My answer is [120–266] or [284–389]"),
    lambda: parse_binary("My answer is [TRUE] or [FALSE]"),
    lambda: parse_region(INDIA, "My answer is [Kerala] or [Tamil Nadu]"),
    lambda: parse_rank(USA, "My answer is [Kansas > Ohio] or [Ohio > Kansas]"),
    lambda: parse_count_answer("My answer is [3] or [4]"),
    lambda: parse_count("Answer: [3] or [4]"),
    lambda: parse_length("Answer: [250 m] or [300 m]"),
    lambda: parse_names("Answer: Alepa or Lidl"),
    lambda: parse_names("Alepa or Lidl"),
    lambda: parse_cardinal("Final answer: [N] or [NE]"),
    lambda: parse_textual("Final answer: [A] or [B]", question=EQUAL_Q),
    lambda: parse_textual("Final answer: Hopeatalo or Kultatalo"),
    lambda: parse_choice("Answer: [A] or [B]"),
    lambda: parse_yes_no("Answer: [Yes] or [No]"),
])
def test_a_or_b_is_invalid_everywhere(read) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(read(), Invalid)


def test_one_bracketed_answer_is_still_read() -> None:
    assert parse_range_answer({}, "My answer is [1k - 2k].") == Parsed({"range": [1e3, 2e3]})
    assert parse_items("My answer is [TX, CA]") == Parsed({"items": ["CA", "TX"]})


def test_counts_of_several_kinds() -> None:
    found = parse_count("There are 3 banks and 5 cafes.")
    assert isinstance(found, Invalid) and "several different counts" in found.reason
    assert isinstance(parse_count("I see 3 banks and 5 shops."), Invalid)
    assert isinstance(parse_count("Answer: 3 banks and 5 cafes"), Invalid)
    assert parse_count("There are 3 banks and 5 cafes.", feature="bank") == \
        Parsed({"count": 3})
    assert parse_count("Answer: 3 banks and 5 cafes", feature="coffee shop") == \
        Parsed({"count": 5})
    # one kind, or numbers that count nothing else, stay as before
    assert parse_count("There are 3 banks within 200 m.") == Parsed({"count": 3})
    assert parse_count("I count 4 pharmacies on 2 streets.") == Parsed({"count": 4})
    item = {"strata": {"feature_type": "bank"}}
    assert parse_count_of_type(item, "I can see 3 banks. There are also 5 cafés.") == \
        Parsed({"count": 3})


@pytest.mark.parametrize(("read", "text", "valid"), [
    (parse_yes_no, "Answer: Yes (I think, the icon is tiny)", False),
    (parse_yes_no, "Answer: Yes (if I'm reading the icon right)", False),
    (parse_count, "Answer: 4, I think.", False),
    (parse_yes_no, "Answer: Yes (the icon is tiny)", True),
    (parse_yes_no, "I think the answer is yes.", True),
    (parse_count, "Answer: 4 (two of them unnamed)", True),
])
def test_doubt_in_brackets_after_the_answer_is_a_hedge(read, text: str,  # type: ignore[no-untyped-def]
                                                       valid: bool) -> None:
    assert read(text).valid is valid


def test_i_think_before_the_answer_stays_firm() -> None:
    assert parse_choice("I think it's C") == Parsed({"letter": "C"})
    assert parse_yes_no("Answer: Yes (I think, the icon is tiny)").reason == \
        "a hedged answer (i think)"


def test_fixes_after_the_third_fresh_set() -> None:
    """What the third fresh set found (tuned, reported apart from its first try)."""
    options = {"a": "590–705", "b": "1350–1350", "c": "412–530", "d": "120–266",
               "e": "None of the above"}
    assert parse_letters("The correct options are (a) and (c).", options) == \
        Parsed({"letters": ["a", "c"]})
    assert parse_letters("My answer is [a. 590–705]", options) == Parsed({"letters": ["a"]})
    assert parse_textual("Final answer: The area labelled B.", question=EQUAL_Q) == \
        Parsed({"names": ["B"]})
    hedged = parse_choice("It looks like a bank, but it could also be something else... "
                          "I'd say B, though I'm not certain.", options={"B": "bank"})
    assert isinstance(hedged, Invalid)
    assert parse_choice("Hmm, the coin symbol. I'd say B.") == Parsed({"letter": "B"})


def test_a_bare_count_then_its_details_is_the_count() -> None:
    assert parse_count("Answer: 3 (2 banks, 1 ATM)", feature="bank") == Parsed({"count": 3})
    assert parse_count("Answer: 3 (2 banks, 1 ATM)") == Parsed({"count": 3})
    assert isinstance(parse_count("Answer: 3 shops and 2 banks"), Invalid)


def test_fixes_after_the_fourth_fresh_set() -> None:
    """What the fourth fresh set found (tuned)."""
    text = "There appear to be about 5 bus stops, though two icons overlap."
    assert parse_count(text, feature="bus stop") == Parsed({"count": 5})
    assert parse_count(text) == Parsed({"count": 5})
    assert isinstance(parse_yes_no("My answer is [Yes] (if I read the legend right)"), Invalid)
    assert isinstance(parse_yes_no("Answer: Yes (if I'm not mistaken)"), Invalid)
