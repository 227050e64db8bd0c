"""Reader classes of issue 24 found by the independent set ``fresh24q.yaml`` (grade24q),
each with near cases that must keep their reading:

1. a letter concluding a sentence (``..., so B.``, ``Therefore (C).``) picks that option;
   an option ruled out by its text (``not a drain``) is never the one named by label;
2. a counted MTMF name list whose comma split gives more names than the count says puts
   a piece that opens in lower case back onto the name before it
   (``bus stop: 3 (Rautatientori, Rautatientori, Rautatientori, laituri 13)``).
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, mtmf_item, value

OPTIONS = {"A": "secondary road", "B": "stream", "C": "minor power line", "D": "drain",
           "E": "ditch"}
MFS = {"task": "mfs", "request": "choice", "options": OPTIONS}
TYPES = ["ATM", "bank", "bus stop", "coffee shop", "parking", "restaurant"]
MTMF = mtmf_item(TYPES)


@pytest.mark.parametrize(("response", "letter"), [
    ("It's not a drain (those are thinner) and not a ditch. The width fits a stream, so B.",
     "B"),
    ("It's not a drain. So B.", "B"),
    ("Not D. Thus C.", "C"),
    ("The line is blue and wavy. Therefore (B).", "B"),
    ("It is not a drain, it is a stream.", "B"),   # the label not ruled out
])
def test_a_concluding_letter_or_the_one_label_not_ruled_out(response: str,
                                                            letter: str) -> None:
    assert value(MFS, response)["letter"] == letter


@pytest.mark.parametrize("response", [
    "It's not a drain.",                 # only a ruled-out label: no pick
    "It's not a drain and not a ditch.",
    "So A or B.",                        # alternatives
])
def test_a_ruled_out_label_is_no_pick(response: str) -> None:
    assert invalid(MFS, response)


def test_a_comma_inside_a_counted_name() -> None:
    got = value(MTMF, "- bus stop: 3 (Rautatientori, Rautatientori, Rautatientori, "
                      "laituri 13)\n- parking: 2")["types"]
    assert got["bus stop"] == {"count": 3, "names": ["Rautatientori", "Rautatientori",
                                                     "Rautatientori, laituri 13"]}


def test_names_that_disagree_with_the_count_otherwise_stay_split() -> None:
    got = value(MTMF, "- bus stop: 2 (Kamppi, Forum, Lasipalatsi)")["types"]
    assert got["bus stop"]["names"] == ["Kamppi", "Forum", "Lasipalatsi"]
