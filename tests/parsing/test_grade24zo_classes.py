"""Reader classes of issue 24 from grade24e1's and grade24e3's independent sets (fixer
fix24zo), each with near cases that must keep their reading:

1. MapIQ MCQ letters each followed by their option's text, in a bracket or list ("My answer
   is [a. ND, b. NH, d. SD]", "[(a) ND; (b) NH]", "[A) 120-266, C) 300-400]"): every
   lettered option is chosen, not only the first; a single lettered option, bare letters and
   an option text holding commas ("b. SC, TN, AL") keep their readings;
2. a FRIEDA textual answer without a cue whose last sentence declines to choose ("Brasserie
   Le Havre and Hotel Kämp both look about equally close ..., so I can't say with confidence
   which one is closer."): invalid; a cue after it, or a last sentence that picks one, keep
   their readings.

Judged, not fixed (see docs/rounds/2026-12-02/fix24zo.md): "I would lean towards X" after an
either/or (fresh24e3.yaml#5, fresh24h.yaml#5) and a yes/no question answered by a statement
of the comparison (fresh54.yaml#9, fresh27.yaml#3); held here so a change is a decision.
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

MAPIQ_MCQ = {"task": "mapiq_sc", "request": "mcq",
             "options": {"a": "ND", "b": "NH", "c": "MA", "d": "SD", "e": "None of the above"}}
MAPIQ_RANGES = {"task": "mapiq_rv", "request": "mcq",
                "options": {"a": "120–266", "b": "SC, TN, AL", "c": "300–400",
                            "d": "None of the above"}}


# ------------------------------------------- 1. letters each followed by their option's text
@pytest.mark.parametrize("response, letters", [
    ("My answer is [a. ND, b. NH, d. SD]", ["a", "b", "d"]),
    ("My answer is [(a) ND; (b) NH]", ["a", "b"]),
    ("My answer is [a) ND, and d) SD]", ["a", "d"]),
    ("My answer is [A. ND, B. NH]", ["a", "b"]),
    ("Final answer: a. ND, d. SD", ["a", "d"]),
    # near cases keep their readings
    ("My answer is [a. ND]", ["a"]),
    ("My answer is [a, b, d]", ["a", "b", "d"]),
    ("My answer is [ND, NH, SD]", ["a", "b", "d"]),
])
def test_mapiq_lettered_options_in_a_list(response: str, letters: list[str]) -> None:
    assert value(MAPIQ_MCQ, response)["letters"] == letters


@pytest.mark.parametrize("response, letters", [
    ("My answer is [A) 120-266, C) 300-400]", ["a", "c"]),
    ("My answer is [a. 120–266, b. SC, TN, AL]", ["a", "b"]),
    ("My answer is [b. SC, TN, AL]", ["b"]),
    ("My answer is [SC, TN, AL]", ["b"]),
])
def test_mapiq_lettered_ranges_and_texts_with_commas(response: str, letters: list[str]) -> None:
    assert value(MAPIQ_RANGES, response)["letters"] == letters


# ------------------------------------------- 2. a FRIEDA last sentence that declines to choose
FRIEDA_NAME = {"task": "frieda_distance", "request": "textual",
               "question": "Which of the three places drawn in blue, purple and orange lies "
                           "closest to Pentik (red dot), in a straight line? Answer with its "
                           "name.",
               "provenance": {"maps": [{"features": [{"label": n} for n in
                                                     ("Pentik", "Hotel Kämp", "Elias Lönnrot",
                                                      "Brasserie Le Havre")]}]}}


@pytest.mark.parametrize("response", [
    "On the map with Pentik (red dot), the blue dot is Brasserie Le Havre, the purple dot "
    "Hotel Kämp and the orange dot Elias Lönnrot. Brasserie Le Havre and Hotel Kämp both look "
    "about equally close to Pentik, within a few pixels of each other, so I can't say with "
    "confidence which one is closer.",
    "Brasserie Le Havre and Hotel Kämp are nearly the same distance away; I cannot tell which "
    "is closer.",
    "Brasserie Le Havre or Hotel Kämp: it could be either.",
    "Brasserie Le Havre is the blue dot and Hotel Kämp the purple one. It's too close to call.",
])
def test_frieda_a_last_sentence_that_declines_to_choose(response: str) -> None:
    assert invalid(FRIEDA_NAME, response)


@pytest.mark.parametrize("response, names", [
    # a cue after the doubt commits
    ("Brasserie Le Havre and Hotel Kämp look equally close, so I can't say for sure.\n\n"
     "Answer: Hotel Kämp", ["Hotel Kämp"]),
    ("Hotel Kämp", ["Hotel Kämp"]),
])
def test_frieda_a_doubt_then_a_pick_keeps_it(response: str, names: list[str]) -> None:
    assert value(FRIEDA_NAME, response)["names"] == names


# ------------------------------------------- judged, not fixed (held so a change is a decision)
MFS = {"task": "mfs", "request": "choice",
       "options": {"A": "cycleway", "B": "footway", "C": "service road", "D": "residential road",
                   "E": "tertiary road"}}


def test_mfs_lean_towards_after_an_either_or_stays_a_hedge() -> None:
    assert invalid(MFS, "The line could be a cycleway or a tertiary road, but it is drawn "
                        "wide, so I would lean towards the tertiary road.")
    assert invalid(MFS, "It is either a cycleway (A) or a tertiary road (E); I'd lean towards E.")


MAPWISE_BINARY = {"task": "mapwise_binary", "request": "binary",
                  "question": "In the legend, does the colour get lighter as the value "
                              "increases?"}


def test_mapwise_binary_statement_without_yes_no_stays_invalid() -> None:
    assert invalid(MAPWISE_BINARY, "The legend goes from a light colour for 0.064–42 to a dark "
                                   "colour for 200–200, so the colour gets darker, not lighter, "
                                   "as the value increases.")
