"""Reader classes of issue 24 from the frozen rounds grade24zg to grade24zl (fixer fix24zw),
each with near cases that must keep their reading:

1. an SRN route told as one sentence whose last step closes with a purpose or gerund clause
   naming the marker ("..., then turn right onto Liisankatu to reach red.", "..., reaching the
   red marker"): the clause is the step "red", not part of the last road; a capitalised road
   ("Reach Street") and a hedge keep their readings.
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

SRN = {"task": "srn", "request": "route"}


# ------------------------------------------- 1. "... onto X to reach red" (SRN)
@pytest.mark.parametrize("response, steps", [
    ("Start at blue, continue straight on Unioninkatu, then turn right onto Liisankatu to "
     "reach red.",
     ["blue", "continue straight", "Unioninkatu", "turn right", "Liisankatu", "red"]),
    ("From blue, turn left onto Kaivokatu to get to the red marker.",
     ["blue", "turn left", "Kaivokatu", "red"]),
    ("From blue, turn left onto Kaivokatu in order to reach the red marker.",
     ["blue", "turn left", "Kaivokatu", "red"]),
    ("From blue, turn left onto Kaivokatu, then turn right onto Liisankatu, reaching the red "
     "marker.",
     ["blue", "turn left", "Kaivokatu", "turn right", "Liisankatu", "red"]),
    ("From blue, turn left onto Kaivokatu, then turn right onto Liisankatu, reaching red.",
     ["blue", "turn left", "Kaivokatu", "turn right", "Liisankatu", "red"]),
    ("Blue, turn left onto Kaivokatu and arrive at red.",
     ["blue", "turn left", "Kaivokatu", "red"]),
    # near cases: a road whose name holds the words keeps them
    ("From blue, turn left onto Kaivokatu to Reach Street, then turn right onto Liisankatu "
     "to reach red.",
     ["blue", "turn left", "Kaivokatu to Reach Street", "turn right", "Liisankatu", "red"]),
])
def test_srn_purpose_clause_is_the_marker(response: str, steps: list[str]) -> None:
    assert value(SRN, response)["steps"] == steps


@pytest.mark.parametrize("response", [
    "From blue, maybe turn left onto Kaivokatu, then turn right onto Liisankatu to reach red.",
])
def test_srn_hedged_route_stays_invalid(response: str) -> None:
    assert invalid(SRN, response)
