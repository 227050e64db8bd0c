"""Reader classes of issue 24 from the frozen rounds grade24zg to grade24zl (fixer fix24zw),
each with near cases that must keep their reading:

1. an SRN route told as one sentence whose last step closes with a purpose or gerund clause
   naming the marker ("..., then turn right onto Liisankatu to reach red.", "..., reaching the
   red marker"): the clause is the step "red", not part of the last road; a capitalised road
   ("Reach Street") and a hedge keep their readings (fresh24zj#50);
2. MTMF prose closed by a catch-all "everything else is 0" (fresh24zg#28): the other types
   are 0; "everything else is hard to read" or a hedge keeps the prose invalid;
3. MTMF "type: count (names)" run on in one line ("restaurant: 4 (A, B), clothes shop: 1 (C),
   park: 1, parking: 1. All the other types: 0.", fresh24zj#42): one type a line, so no
   names run over the rest; one type a line and a name holding a type word keep theirs;
4. a count's zero said as "<lead-in>, none of the <noun phrase> overlap/border/..."
   (fresh29#38; FRIEDA, STMF and MapWise counts): 0; a hedge or a "none of" clause that
   says no relation stays invalid;
5. two or more of the map's names joined by "/" ("Gigantti / AT Lastenturva", fresh31#26;
   FRIEDA textual): a choice, invalid; a legend name that holds " / " and one name alone
   keep their readings.
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


# ------------------------------------------- 2. MTMF prose closed by "everything else is 0"
MTMF_TYPES = ["restaurant", "parking", "park", "clothes shop", "bank"]


def _mtmf(names: list[str] | None = None) -> dict:
    item: dict = {"task": "mtmf", "request": "all",
                  "answer": {"types": {t: {"count": 0, "names": []} for t in MTMF_TYPES}}}
    if names:
        item["provenance"] = {"map_names": names}
    return item


def _said(types: dict) -> dict:
    return {t: (v["count"], v["names"]) for t, v in types.items() if v["count"] or v["names"]}


@pytest.mark.parametrize("response", [
    "i see 2 restaurants and 1 parking, no names written for them. everything else is 0",
    "I see 2 restaurants and 1 parking. Everything else is zero.",
    "2 restaurants, 1 parking; everything else: 0",
    "I count two restaurants and one parking. Anything else is absent.",
])
def test_mtmf_everything_else_is_zero(response: str) -> None:
    assert _said(value(_mtmf(), response)["types"]) == {"restaurant": (2, []),
                                                       "parking": (1, [])}


@pytest.mark.parametrize("response", [
    "I see 2 restaurants and 1 parking. Everything else is hard to read.",
    "I see 2 restaurants and 1 parking. Everything else I could not check.",
    "I see 2 restaurants and maybe 1 parking. Everything else is 0.",
])
def test_mtmf_everything_else_unsaid_or_hedged_stays_invalid(response: str) -> None:
    assert invalid(_mtmf(), response)


# ------------------------------------------- 3. several "type: count (names)" on one line
@pytest.mark.parametrize("response, said", [
    ("restaurant: 4 (Arthur, Dong Bei Hu, Ryan Thai, Unicafe Metsätalo), clothes shop: 1 "
     "(Vaatelainaamo Vaaterekki), park: 1, parking: 1. All the other types: 0.",
     {"restaurant": (4, ["Arthur", "Dong Bei Hu", "Ryan Thai", "Unicafe Metsätalo"]),
      "clothes shop": (1, ["Vaatelainaamo Vaaterekki"]), "park": (1, []),
      "parking": (1, [])}),
    ("restaurant: 2 (Arthur, Ryan Thai); park: 1; parking: 1; the rest: 0",
     {"restaurant": (2, ["Arthur", "Ryan Thai"]), "park": (1, []), "parking": (1, [])}),
    ("park: 1, restaurant: 1 (Arthur). Everything else: 0",
     {"park": (1, []), "restaurant": (1, ["Arthur"])}),
    # near cases: one type a line reads as before; a name holding a type word stays whole
    ("restaurant: 2 (Arthur, Ryan Thai)\npark: 1\nparking: 1\nAll other types: 0",
     {"restaurant": (2, ["Arthur", "Ryan Thai"]), "park": (1, []), "parking": (1, [])}),
    ("restaurant: 2 (Arthur, Park Cafe)\nAll other types: 0",
     {"restaurant": (2, ["Arthur", "Park Cafe"])}),
])
def test_mtmf_counts_run_on_one_line(response: str, said: dict) -> None:
    names = ["Arthur", "Dong Bei Hu", "Ryan Thai", "Unicafe Metsätalo",
             "Vaatelainaamo Vaaterekki", "Park Cafe"]
    assert _said(value(_mtmf(names), response)["types"]) == said


# ------------------------------------------- 4. a zero said as "..., none of the X overlap"
FRIEDA_COUNT = {"task": "frieda_intersect", "request": "count"}
STMF_COUNT = {"task": "stmf", "request": "count", "strata": {"feature_type": "parking"}}
MW_COUNT = {"task": "mapwise_count", "request": "count", "provenance": {"country": "india"}}


@pytest.mark.parametrize("item, response", [
    (FRIEDA_COUNT, "Looking at the map that outlines UPM, none of the industrial and works "
                   "land areas overlap its outline; the areas around it are commercial land."),
    (FRIEDA_COUNT, "On the land-use map, none of the areas shown as industrial land touch it."),
    (FRIEDA_COUNT, "Checking the outline, none of them overlap it."),
    (STMF_COUNT, "Scanning the whole map, none of the parking icons lie on it."),
    (MW_COUNT, "Looking at the legend, none of the states in the top class border the sea."),
])
def test_count_zero_as_none_of_after_a_lead_in(item: dict, response: str) -> None:
    assert value(item, response)["count"] == 0


@pytest.mark.parametrize("item, response", [
    # a hedge, or a clause that says nothing relates, keep their readings
    (FRIEDA_COUNT, "Looking at the map, maybe none of the industrial areas overlap it."),
    (FRIEDA_COUNT, "Looking at the map, none of the industrial areas are easy to read."),
])
def test_count_none_of_without_relation_or_hedged_stays_invalid(item: dict,
                                                                  response: str) -> None:
    assert invalid(item, response)


# ------------------------------------------- 5. two offered names joined by "/" (FRIEDA)
LEGEND = ["hanko sushi", "Gigantti", "AT Lastenturva", "Globe Hope",
          "Rautatientori / itä kaupunkipyöräasema", "commercial building"]


def _frieda(task: str, question: str) -> dict:
    return {"task": task, "request": "textual", "question": question,
            "provenance": {"maps": [{"features": [{"label": n} for n in LEGEND]}]}}


ORIENT = _frieda("frieda_orientation",
                 "Of Gigantti (blue dot), AT Lastenturva (purple dot) and Globe Hope (orange "
                 "dot), which one lies to the south of hanko sushi (red dot)? Answer with its "
                 "name.")
WITHIN = _frieda("frieda_within", "Which feature lies within the commercial building area? "
                                  "Answer with its name.")


@pytest.mark.parametrize("item, response", [
    (ORIENT, "Gigantti / AT Lastenturva"),
    (ORIENT, "Answer: Gigantti/AT Lastenturva"),
    (ORIENT, "**Gigantti / Globe Hope**"),
    (WITHIN, "Gigantti / AT Lastenturva / Globe Hope"),
])
def test_frieda_slashed_names_are_a_choice(item: dict, response: str) -> None:
    assert invalid(item, response)


@pytest.mark.parametrize("item, response, names", [
    # near cases: a legend name holding " / " is one name; one name alone reads as before
    (WITHIN, "Rautatientori / itä kaupunkipyöräasema",
     ["Rautatientori / itä kaupunkipyöräasema"]),
    (ORIENT, "Answer: AT Lastenturva", ["AT Lastenturva"]),
])
def test_frieda_one_name_with_or_without_slash_kept(item: dict, response: str,
                                                     names: list[str]) -> None:
    assert value(item, response)["names"] == names
