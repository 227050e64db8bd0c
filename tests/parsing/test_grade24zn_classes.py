"""Reader classes fixed by fix24zn (issue 24), each with near cases that keep their reading:

1. (``fresh24zw.yaml#2``) a cue-less multiple-choice answer whose concluding last sentence
   writes the option as letter and text (``... so the fill is most consistent with
   **E. garages**.``, ``E) garages``, ``option E (garages)``): that letter (MFS), with or
   without reasoning that names other letters; a text after the letter that is not that
   option's, a hedge, a ruled-out or doubled option: still invalid.
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

MFS = {"task": "mfs", "request": "choice",
       "options": {"A": "prison", "B": "police station", "C": "greenhouses",
                   "D": "fire station", "E": "garages"}}
TABLE = ("### Analysis of the area fill\n\n* **Fill colour:** a light grey base.\n"
         "* **Pattern:** evenly spaced thin vertical darker-grey lines.\n\n"
         "### Comparing with the options\n\n| Option | OSM Carto rendering |\n|---|---|\n"
         "| prison | grey with a hatch pattern |\n| garages | grey, striped |\n\n")
LETTERED = ("A prison (A) has a hatch, greenhouses (C) are glassy and a fire station (D) has "
            "an icon.\n\n")


# ------------------------------------- 1. the concluding sentence's letter with its text
@pytest.mark.parametrize("before", [TABLE, LETTERED])
@pytest.mark.parametrize("last", [
    "The regular stripes look like rows of garage boxes, so the fill is most consistent "
    "with **E. garages**.",
    "So the fill is most consistent with E) garages.",
    "Therefore the feature is **E. Garages**.",
    "So the best match is option E (garages).",
])
def test_mfs_concluding_letter_with_its_option_text(before: str, last: str) -> None:
    assert value(MFS, before + last)["letter"] == "E"


@pytest.mark.parametrize("before", [TABLE, LETTERED])
@pytest.mark.parametrize("last", [
    "So the fill is most consistent with E) prison.",  # the text is another option's
    "So the fill is probably most consistent with **E. garages**.",
    "So it is not **E. garages**.",
    "So it is either **A. prison** or **E. garages**.",
    "The stripes look like **E. garages**.",  # no concluding word
])
def test_mfs_lettered_text_that_does_not_conclude_stays_invalid(before: str, last: str) -> None:
    assert invalid(MFS, before + last)


# ------------------------------- 2. a choice said with "lean towards" after an either/or
DOCK = {"task": "mfs", "request": "choice",
        "options": {"A": "airport", "B": "dock", "C": "ferry terminal", "D": "salt pond",
                    "E": "meadow"}}
OFFER = ("This looks like either a dock (B) or a ferry terminal (C): a grey basin cut into "
         "the shore. There is no ferry icon, ")


@pytest.mark.parametrize("pick", [
    "so I'd lean towards B.",
    "so I would lean towards the dock.",
    "so I'll go with B.",
    "so I'd go with the dock (B).",
    "so I'll pick B.",
    "so if I had to choose, B.",
])
def test_mfs_a_preference_after_an_either_or_is_a_choice(pick: str) -> None:
    assert value(DOCK, OFFER + pick)["letter"] == "B"


def test_mfs_lean_towards_an_option_text_after_could_be_x_or_y() -> None:
    item = {"task": "mfs", "request": "choice",
            "options": {"A": "raceway", "B": "railway under construction",
                        "C": "minor power line", "D": "cycleway", "E": "tertiary road"}}
    text = ("The line could be a cycleway or a tertiary road, since both are drawn fairly "
            "thin. However, cycleways are drawn as blue dashed lines, and this one is a solid "
            "pale line with a grey casing, so I would lean towards the tertiary road.")
    assert value(item, text)["letter"] == "E"


@pytest.mark.parametrize("text", [
    OFFER + "so I'd lean towards B, but it could well be C.",
    OFFER + "so I can't decide; maybe I'd lean towards B?",
    OFFER + "so it is either B or C.",
    OFFER + "so it is probably B.",
    "There is no ferry icon, so I'd lean towards B.",  # no either/or before: still a hedge
    OFFER + "so I'd lean towards D.",  # an option the either/or did not offer
])
def test_mfs_a_preference_that_doubts_or_was_not_offered_stays_invalid(text: str) -> None:
    assert invalid(DOCK, text)


# ------------------------------ 3. a yes/no comparison answered by its concluding statement
RI_ID = "Does Rhode Island (RI) have a higher value than Idaho (ID)?\nAnswer Yes or No."
LEGEND = "In the legend, does the colour get lighter as the value increases?\nAnswer Yes or No."
SUITES = ["mapwise_binary", "mapiq_rv"]


def _binary(task: str, question: str) -> dict[str, object]:
    return {"task": task, "request": "binary", "question": question}


@pytest.mark.parametrize("task", SUITES)
@pytest.mark.parametrize(("question", "text", "answer"), [
    (RI_ID, "Rhode Island shows 11.5 and Idaho shows 14.3, so Rhode Island's value is lower "
            "than Idaho's.", False),
    (RI_ID, "RI shows 11.5 and ID shows 14.3, so RI's value is lower than ID's.", False),
    (RI_ID, "RI shows 15.5 and ID 14.3. Therefore Rhode Island has a higher value than "
            "Idaho.", True),
    (LEGEND, "The legend goes from a light colour for 0.064–42 to a dark colour for 200–200, "
             "so the colour gets darker, not lighter, as the value increases.", False),
    (LEGEND, "So the colour gets lighter as the value increases.", True),
    (LEGEND, "So the colour gets lighter as the value decreases.", False),
])
def test_binary_concluding_comparison_reads_yes_or_no(task: str, question: str, text: str,
                                                      answer: bool) -> None:
    assert value(_binary(task, question), text)["value"] is answer


@pytest.mark.parametrize("task", SUITES)
@pytest.mark.parametrize(("question", "text"), [
    (RI_ID, "So Rhode Island's value is lower."),  # one region only
    (RI_ID, "So Idaho's value is higher than Rhode Island's."),  # the order swapped
    (RI_ID, "So Rhode Island's value is probably lower than Idaho's."),  # a hedge
    (RI_ID, "So is Rhode Island's value lower than Idaho's?"),  # a question
    (RI_ID, "Rhode Island's value is lower than Idaho's. Both are pale shades."),  # not last
    (RI_ID, "So Rhode Island's value is not lower than Idaho's."),  # a negation: left out
    (RI_ID, "So Rhode Island is lower than Idaho but higher than Ohio."),  # two comparisons
    (LEGEND, "The colour gets darker as the value increases, but the map is hard to read, "
             "so I am unsure."),
    (LEGEND, "So the colour does not get lighter as the value increases."),
])
def test_binary_statement_that_is_not_the_comparison_stays_invalid(task: str, question: str,
                                                                   text: str) -> None:
    assert invalid(_binary(task, question), text)
