"""The five classes behind grade24i's disagreements (issue 24, session grade24j), each
with hand-written expectations and near cases that must stay as they were (hedges,
alternatives, no pick, the bar's own length)."""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing.result import Invalid
from cartoqa.parsing.rules import cut_off, rejected_then_picked

MFS = {"task": "mfs", "request": "choice", "options": {"A": "cinema", "B": "palace", "C": "castle",
                                  "D": "waste disposal", "E": "fortress"}}
RLE = {"task": "rle", "request": "length", "answer": {"value": 1.0, "unit": "m"}}
MAPIQ_MCQ = {"task": "mapiq_rv", "request": "mcq",
             "options": {"a": "590–705", "b": "1350–1350", "c": "412–530", "d": "120–266"}}
MAPWISE_SINGLE = {"task": "mapwise_single", "request": "single",
                  "provenance": {"country": "usa"}}
EQUAL_Q = ("Map 1 outlines Rautatientori in red. Map 2 outlines two areas, A and B, on a turned "
           "map, perhaps at another scale. Which of them covers exactly the same ground as "
           "Rautatientori? Answer A or B.")
EQUAL = {"task": "frieda_equal", "request": "textual", "question": EQUAL_Q}
WITHIN_Q = ("The legend names the features drawn on the map. Of the 3 features other than "
            "Esplanadinpuisto: which one of these 3 features lies entirely within "
            "Esplanadinpuisto (the park), drawn in red? Answer with its name.")
LEGEND = ["Esplanadinpuisto", "Stockmann", "Espan lava", "Grönqvistin talo"]
WITHIN = {"task": "frieda_within", "request": "textual", "question": WITHIN_Q,
          "provenance": {"maps": [{"features": [{"label": n} for n in LEGEND]}]}}
INTERSECT_Q = ("The legend names the features drawn on the map. Which one of these 3 features "
               "partly overlaps Hevonen (the city block), drawn in red? Answer with its name.")
INTERSECT = {"task": "frieda_intersect", "request": "textual", "question": INTERSECT_Q,
             "provenance": {"maps": [{"features": [
                 {"label": n} for n in ("Hevonen", "Pitkäsilta", "Kruununhaan yläasteen koulu")]}]}}
DIST_Q = "How far apart are Roberts Coffee and Hiljaisuuden jalanjäljet? Answer in metres."
DIST = {"task": "frieda_distance", "request": "distance", "question": DIST_Q,
        "answer": {"unit": "m"}}


# 1. a later correction cue wins ------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Answer: B\n\nWait — the palace icon has a dome; so it is the castle. Corrected answer: C",
    "Answer: B\nRevised answer: C",
    "Answer: B\nUpdated answer: C",
    "Answer: B. Final corrected answer: C",
    "Final answer: B\nAmended answer - C",
    "Answer: B\nThe corrected answer is C.",
    "**Answer:** B\n\n**Corrected answer:** C",
])
def test_correction_cue_wins_mfs(text: str) -> None:
    assert value(MFS, text) == {"letter": "C"}


def test_correction_cue_in_other_suites() -> None:
    assert value(EQUAL, "Answer: A\nLooking again at the shape... Revised answer: B") == {
        "names": ["B"]}
    assert value(MAPIQ_MCQ, "My answer is [a].\nUpdated answer: [c]") == {"letters": ["c"]}
    assert value(RLE, "Answer: 300 m\nCorrected answer: 450 m")["value"] == 450
    assert value(MAPWISE_SINGLE, "Answer: Texas\nCorrected answer: Ohio") is not None


@pytest.mark.parametrize("text", [
    "Answer: B\nCorrected answer: maybe C",        # the correction hedges
    "Answer: B\nRevised answer: C or D",           # the correction offers two
    "Answer: B\nCorrected answer: C\nFinal answer: D or E",
])
def test_correction_cue_near_misses_stay_invalid(text: str) -> None:
    assert invalid(MFS, text)


def test_uncorrected_is_no_cue() -> None:
    # "uncorrected" is not "corrected"; "a new answer format" is no cue
    assert value(MFS, "Answer: B\nThe uncorrected answer: C is not used.") == {"letter": "B"}


# 2. a rejected option, then the pick, no cue ---------------------------------------------
@pytest.mark.parametrize("text", [
    "It's not A, which is too large; it's B.",
    "Not A but B.",
    "It is not A but rather B.",
    "It's not A, it's B.",
    "A is wrong, B is right.",
    "Area A is incorrect; Area B is the match.",
])
def test_rejected_then_pick_frieda_equal(text: str) -> None:
    assert value(EQUAL, text) == {"names": ["B"]}


@pytest.mark.parametrize("text", [
    "It's not A.",                          # no pick stated: invalid even with two options
    "It's not A; it might be B.",           # the pick hedges
    "It is not A but B or C.",              # the pick offers two
])
def test_rejected_without_firm_pick_stays_invalid(text: str) -> None:
    assert invalid(EQUAL, text)


def test_rejected_then_bare_letter_reads_as_before() -> None:
    # the option reader already drops a negated letter: "It is not A, B." reads B
    assert value(EQUAL, "It is not A, B.") == {"names": ["B"]}


def test_rejected_then_picked_helper() -> None:
    assert rejected_then_picked("Not Mikonkatu but Vilhonkatu.") == "Vilhonkatu"
    assert rejected_then_picked("It's not the red one.") is None
    assert rejected_then_picked("It is Kiasma.") is None


def test_rejected_then_pick_other_suites() -> None:
    assert value(MAPWISE_SINGLE, "Texas is wrong, Ohio is right.") == {"regions": ["OH"]}
    assert value(MAPWISE_SINGLE, "It is not Texas but Ohio.") == {"regions": ["OH"]}
    assert value(MAPIQ_MCQ, "It's not a, which is too low; it's c.") == {"letters": ["c"]}
    assert invalid(MAPWISE_SINGLE, "It's not Texas.")


def test_rejected_then_pick_mfs_unchanged() -> None:
    # the street rule (drop_negated) already read it; still so
    assert value(MFS, "It's not A (cinema), since it has battlements... it's C.") == {
        "letter": "C"}


# 3. a cue-less sentence naming one legend label besides the question's --------------------
@pytest.mark.parametrize("text", [
    'The feature inside Esplanadinpuisto is "Espan lava".',
    "Inside Esplanadinpuisto you find Espan lava.",
    "Looking at the red park, Espan lava sits wholly inside Esplanadinpuisto.",
])
def test_one_legend_name_in_a_sentence(text: str) -> None:
    assert value(WITHIN, text) == {"names": ["Espan lava"]}


@pytest.mark.parametrize("text", [
    # "Both Espan lava and Stockmann are inside Esplanadinpuisto." was here (two names): since
    # fix24z it reads both names, as grade24n's "Both A and B border it." does (neither is
    # picked alone; compared as a set it is wrong): tests/parsing/test_grade24z_classes.py
    "Espan lava is not inside Esplanadinpuisto.",                   # negated
    "Inside Esplanadinpuisto there might be Espan lava.",           # hedged
    "It is Espan lava or Stockmann, inside Esplanadinpuisto.",      # alternatives
    "The feature inside Esplanadinpuisto is hard to see.",          # only the question's
])
def test_legend_sentence_near_misses_stay_invalid(text: str) -> None:
    assert invalid(WITHIN, text)


# 4. truncated text is no name ----------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Looking at the map, the red block Hevonen is crossed by the",
    "The feature that overlaps Hevonen is next to",
    "Hevonen is partly overlapped by the building of",
])
def test_truncated_is_invalid(text: str) -> None:
    r = parse_response(INTERSECT, text)
    assert isinstance(r, Invalid) and r.reason.startswith("truncated"), r


def test_complete_sentences_still_read() -> None:
    assert value(INTERSECT, "Hevonen is crossed by Pitkäsilta.") == {"names": ["Pitkäsilta"]}
    assert value(INTERSECT, "Answer: Pitkäsilta") == {"names": ["Pitkäsilta"]}
    assert cut_off("It's A") is None and cut_off("It is Pitkäsilta.") is None
    assert cut_off("... crossed by the") == "by the"


# 5. the scale-bar guard takes only the bar's own length ----------------------------------------
@pytest.mark.parametrize("text, metres", [
    ("Using both scale bars, Roberts Coffee and Hiljaisuuden jalanjäljet are **about 230 "
     "metres** apart.", 230),
    ("Using the scale bar, the distance between them is 230 m.", 230),
    ("Based on the scale bar of 200 m, they are 640 m apart.", 640),
    ("Using the 50 m scale bar, the path measures roughly 275 m.", 275),
    ("The scale bar reads 0-100 m, and the two dots are 300 m apart.", 300),
])
def test_length_measured_with_the_bar_is_read(text: str, metres: float) -> None:
    assert value(DIST, text)["value"] == pytest.approx(metres)


@pytest.mark.parametrize("text", [
    "The scale bar shows 100 m.",
    "Scale bar: 50 m",
    "The scale bar at the bottom left shows 0-50 m.",
    "The scale bar (100 m) is about 70 px.",
    "The scale bar, which is 200 m long.",
    "The scale bar's length is 200 m.",
])
def test_bar_own_length_stays_invalid(text: str) -> None:
    r = parse_response(DIST, text)
    assert isinstance(r, Invalid) and "scale bar" in r.reason, r
    assert isinstance(parse_response(RLE, text), Invalid)
