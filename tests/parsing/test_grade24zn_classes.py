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
