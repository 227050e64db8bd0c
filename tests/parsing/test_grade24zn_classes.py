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
