"""FRIEDA ``area_pick`` answers in a sentence: the subject is the answer when the object
is the category the question itself names (found by writing answers in model styles to
the new template; ``Pohjoinen Makasiinikatu borders the commercial building area.`` was
read as the category)."""

from __future__ import annotations

import pytest
from helpers.parsed import value

QUESTION = ("The map shades areas by building use: its legend box at the bottom right names "
            "each fill. Which one of Puolustusministeriö (blue outline), Hotel Lilla Robert "
            "(purple outline) and Pohjoinen Makasiinikatu (orange line) borders an area shown "
            "as commercial building? Answer with its name.")
LEGEND = ["Puolustusministeriö", "Hotel Lilla Robert", "Pohjoinen Makasiinikatu",
          "commercial building", "public building", "residential building"]
ITEM = {"task": "frieda_border", "request": "textual", "question": QUESTION,
        "provenance": {"maps": [{"features": [{"label": n} for n in LEGEND[:3]],
                                 "legend_categories": LEGEND[3:]}]}}
RELATION_Q = "Which street borders Porthania?"
RELATION_ITEM = {"task": "frieda_border", "request": "textual", "question": RELATION_Q}


@pytest.mark.parametrize("response", [
    "Pohjoinen Makasiinikatu borders the commercial building area.",
    "Pohjoinen Makasiinikatu borders the commercial building.",
    "Answer: Pohjoinen Makasiinikatu",
])
def test_the_candidate_not_the_category(response: str) -> None:
    assert value(ITEM, response)["names"] == ["Pohjoinen Makasiinikatu"]


def test_the_object_of_the_question_s_own_feature_is_still_the_answer() -> None:
    assert value(RELATION_ITEM, "Porthania borders Yliopistonkatu.")["names"] == \
        ["Yliopistonkatu"]
