"""Reader classes of grade24zr/zt/zx's SRN and MML disagreements (fresh24zr#33, #40,
fresh24zt#37, fresh24zx#38, #47, #50) and fix24zu's "seen, not fixed" list, fixed by
fix24zs as classes, each with near cases that must keep their reading:

1. MML: a second road said in a clause after the marker's road ("on X, at the corner
   where Y joins it", "on X where Y meets it", "on X, where it meets Y"): both roads; a
   clause naming no road ("where the esplanade ends") stays no second road;
2. MML and SRN: a road followed by its other-language name (or a note) in brackets
   ("Eteläesplanadi (Södra esplanaden)"): the bracket is no part of the road (the street
   maps' roads carry none); STMF names keep theirs (OSM shop names do carry them);
3. SRN: a route told in one prose sentence from a turn to the red marker, with no list,
   no cue and no blue marker: blue, the steps, red; a heading ("and drive west") is no step;
4. SRN: an adverb inside a turn phrase ("turn left again", "once more", "immediately",
   "sharply", "slightly"): the action;
5. SRN: a markdown table with an action column and a road column and no list: the route;
6. MML "on X, near Stockmann" (a landmark, not a road: read as "on X", one road, invalid),
   "on X and Y" (both names); STMF/FRIEDA "..., and the park too" (a thing, not a name).
"""

from __future__ import annotations

import pytest
from helpers.parsed import invalid, value

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing import Invalid

SRN = {"task": "srn", "request": "route"}
MML = {"task": "mml", "request": "roads"}
STMF = {"task": "stmf", "request": "names"}
FRIEDA = {"task": "frieda_within", "request": "textual",
          "question": "Which of these features lie within Kirahvi? Answer with their names."}


# ------------------------------------------------- 1. the second road said in a clause
@pytest.mark.parametrize("response", [
    "The red marker is on Paasivuorenkatu, at the corner where Saariniemenkatu joins it.",
    "The marker is on Paasivuorenkatu where Saariniemenkatu joins it.",
    "The blue marker lies on Paasivuorenkatu, at the junction where Saariniemenkatu "
    "meets it.",
    "The marker is on Paasivuorenkatu, where it meets Saariniemenkatu.",
    "The marker sits on Paasivuorenkatu, at the junction where it crosses Saariniemenkatu.",
    "The marker is on Paasivuorenkatu, right where Saariniemenkatu crosses it.",
    "Answer: Paasivuorenkatu, at the corner where Saariniemenkatu joins it",
])
def test_mml_second_road_in_a_where_clause(response: str) -> None:
    assert value(MML, response)["roads"] == ["Paasivuorenkatu", "Saariniemenkatu"]


@pytest.mark.parametrize("response", [
    "The marker is on Eteläranta, right where the esplanade ends.",
    "The marker is on Eteläranta, where the esplanade meets it.",
    "The marker is on Eteläranta.",
])
def test_mml_a_clause_naming_no_road_adds_none(response: str) -> None:
    assert invalid(MML, response)


def test_mml_junction_and_corner_phrases_keep_their_reading() -> None:
    assert value(MML, "It is at the intersection of Mannerheimintie and Lönnrotinkatu.")[
        "roads"] == ["Mannerheimintie", "Lönnrotinkatu"]
    assert value(MML, "The marker is at the corner of Eteläranta and Kauppatori.")[
        "roads"] == ["Eteläranta", "Kauppatori"]
    assert invalid(MML, "The marker is on Paasivuorenkatu, maybe where Saariniemenkatu "
                        "joins it.")


# -------------------------------------------- 2. another name in brackets after a road
@pytest.mark.parametrize("response", [
    "Answer: Eteläesplanadi (Södra esplanaden); Kasarmikatu (Kaserngatan)",
    "Answer: Eteläesplanadi (Södra esplanaden); Kasarmikatu",
    "Eteläesplanadi (Södra esplanaden) and Kasarmikatu (Kaserngatan)",
    "The marker is at the intersection of Eteläesplanadi (Södra esplanaden) and "
    "Kasarmikatu (Kaserngatan).",
    "- Eteläesplanadi (Södra esplanaden)\n- Kasarmikatu (Kaserngatan)",
    '["Eteläesplanadi (Södra esplanaden)", "Kasarmikatu (Kaserngatan)"]',
    "The marker is at the corner of **Eteläesplanadi** and **Kasarmikatu**. (In Swedish "
    "these streets are Södra esplanaden and Kaserngatan.)\n\nAnswer: Eteläesplanadi (Södra "
    "esplanaden); Kasarmikatu (Kaserngatan)",
    "Answer: Eteläesplanadi (one-way); Kasarmikatu",
])
def test_mml_a_bracketed_other_name_is_no_part_of_the_road(response: str) -> None:
    assert value(MML, response)["roads"] == ["Eteläesplanadi", "Kasarmikatu"]


@pytest.mark.parametrize("response", [
    "Route: blue, turn left onto Eteläesplanadi (Södra esplanaden), turn right, "
    "Kasarmikatu (Kaserngatan), red",
    '["blue", "turn left", "Eteläesplanadi (Södra esplanaden)", "turn right", '
    '"Kasarmikatu (Kaserngatan)", "red"]',
    "From blue, turn left onto Eteläesplanadi (Södra esplanaden), then turn right onto "
    "Kasarmikatu (Kaserngatan) until you reach red.",
    "1. Start at the blue marker.\n2. Turn left onto Eteläesplanadi (Södra esplanaden).\n"
    "3. Turn right onto Kasarmikatu (Kaserngatan).\n4. Arrive at the red marker.",
])
def test_srn_a_bracketed_other_name_is_no_part_of_the_road(response: str) -> None:
    assert value(SRN, response)["steps"] == ["blue", "turn left", "Eteläesplanadi",
                                             "turn right", "Kasarmikatu", "red"]


def test_names_keep_brackets_that_are_part_of_a_name() -> None:
    # OSM shop names carry such brackets ("Ravintola Ragu (Italian kitchen)"): STMF keeps them
    assert value(STMF, 'Answer: ["Ravintola Ragu (Italian kitchen)", "El Greco"]')[
        "names"] == ["Ravintola Ragu (Italian kitchen)", "El Greco"]
    assert invalid(MML, "Answer: Eteläesplanadi (not sure); Kasarmikatu")


# ----------------------------------------- 3. one prose sentence from a turn to the red marker
TOLD = ["blue", "turn left", "Eteläinen Makasiinikatu", "turn left", "Kasarmikatu", "red"]


@pytest.mark.parametrize("response", [
    "The vehicle should turn left onto Eteläinen Makasiinikatu and drive west, then turn "
    "left onto Kasarmikatu and drive south until it reaches the red marker.",
    "Turn left onto Eteläinen Makasiinikatu, then turn left onto Kasarmikatu until you "
    "reach the red marker.",
    "You should turn left onto Eteläinen Makasiinikatu and head west, then turn left onto "
    "Kasarmikatu to reach the red marker.",
    "From the blue marker, turn left onto Eteläinen Makasiinikatu and drive west, then turn "
    "left onto Kasarmikatu and drive south until you reach the red marker.",
])
def test_srn_a_route_told_in_one_sentence(response: str) -> None:
    assert value(SRN, response)["steps"] == TOLD


@pytest.mark.parametrize("response", [
    "The red marker is south of Kasarmikatu.",
    "The vehicle should probably turn left onto Kasarmikatu until it reaches the red marker.",
    "Turn left onto Kaivokatu or Liisankatu until you reach the red marker.",
    "The vehicle should turn left onto Kasarmikatu.",
    "I looked at the map.\nThe vehicle should turn left onto Kasarmikatu until it reaches "
    "the red marker.",
])
def test_srn_no_route_told(response: str) -> None:
    got = parse_response(SRN, response)
    assert isinstance(got, Invalid) or got.value["steps"][0] == "blue", got


def test_srn_a_heading_before_more_words_is_left_as_it_was() -> None:
    # "and drive north for 200 m": not a bare heading; not read as a road "X for 200 m"
    got = value(SRN, "From blue, turn left onto Kaivokatu and drive north for 200 m, then "
                     "turn right onto Liisankatu until you reach red.")["steps"]
    assert "Kaivokatu for 200 m" not in got


# ---------------------------------------------------- 4. an adverb inside a turn phrase
@pytest.mark.parametrize("response", [
    "From the blue marker, turn left onto Pohjoisesplanadi, then turn left again onto "
    "Fabianinkatu and drive on to the red marker.",
    "From the blue marker, turn left onto Pohjoisesplanadi, then turn left once more onto "
    "Fabianinkatu until you reach the red marker.",
    "Route: blue, turn left, Pohjoisesplanadi, turn left again, Fabianinkatu, red",
    "Route: ['blue', 'turn left', 'Pohjoisesplanadi', 'turn left again', 'Fabianinkatu', "
    "'red']",
    "1. Start at the blue marker.\n2. Turn left onto Pohjoisesplanadi.\n3. Turn sharply "
    "left onto Fabianinkatu.\n4. Arrive at the red marker.",
    "From blue, bear slightly left onto Pohjoisesplanadi, then immediately turn left onto "
    "Fabianinkatu until you reach red.",
])
def test_srn_an_adverb_in_a_turn_is_no_part_of_it(response: str) -> None:
    assert value(SRN, response)["steps"] == ["blue", "turn left", "Pohjoisesplanadi",
                                             "turn left", "Fabianinkatu", "red"]


def test_srn_a_road_holding_such_a_word_keeps_its_name() -> None:
    assert value(SRN, "Route: blue, turn left, Again Street, red")["steps"] == [
        "blue", "turn left", "Again Street", "red"]


# ---------------------------------------------------------------- 5. a markdown table
@pytest.mark.parametrize("response", [
    "| Step | Action | Road |\n|---|---|---|\n| 1 | turn right | Bergbominkuja |\n"
    "| 2 | turn right | Itäinen Teatterikuja |\n\nThe vehicle starts at the blue marker, "
    "and Itäinen Teatterikuja leads south to the red marker on Vilhonkatu.",
    "| # | Turn | Street |\n|---|---|---|\n| 1 | Right | Bergbominkuja |\n"
    "| 2 | Right | Itäinen Teatterikuja |",
    "**Route**\n\n| Step | Action | Road name |\n|:-:|:--|:--|\n| 1 | turn right | "
    "Bergbominkuja |\n| 2 | turn right | Itäinen Teatterikuja |",
])
def test_srn_route_as_a_markdown_table(response: str) -> None:
    assert value(SRN, response)["steps"] == ["blue", "turn right", "Bergbominkuja",
                                             "turn right", "Itäinen Teatterikuja", "red"]


@pytest.mark.parametrize("response", [
    "| Step | Action | Road |\n|---|---|---|\n| 1 | turn right | Bergbominkuja |\n"
    "| 2 | turn right | Itäinen Teatterikuja |\n\nI'm not sure about the second turn.",
    "| Road | Length |\n|---|---|\n| Bergbominkuja | 200 m |",
    "| Step | Action | Road |\n|---|---|---|\n| 1 | look around | Bergbominkuja |",
])
def test_srn_no_route_table(response: str) -> None:
    assert invalid(SRN, response)


def test_srn_a_list_beside_a_table_is_the_answer() -> None:
    text = ("| Step | Action | Road |\n|---|---|---|\n| 1 | turn left | Bergbominkuja |\n\n"
            "Answer: ['blue', 'turn right', 'Bergbominkuja', 'red']")
    assert value(SRN, text)["steps"] == ["blue", "turn right", "Bergbominkuja", "red"]


# ------------------------------------------------------------ 6. fix24zu's seen-not-fixed
@pytest.mark.parametrize("response", [
    "The marker is on Eteläranta, near Stockmann.",
    "The marker is on Eteläranta, next to the Stockmann department store.",
    "The red marker is on Eteläranta, just opposite Kauppatori.",
    "The marker is on Eteläranta, near Stockmann and the theatre.",
])
def test_mml_one_road_and_a_landmark_is_one_road(response: str) -> None:
    assert invalid(MML, response)


@pytest.mark.parametrize("response", [
    "The marker is on Eteläranta and Kauppatori.",
    "The marker is at Eteläranta and Kauppatori.",
    "The marker is on Eteläranta, near the corner with Kauppatori.",
    "Answer: Eteläranta and Kauppatori",
])
def test_mml_marker_on_two_names(response: str) -> None:
    assert value(MML, response)["roads"] == ["Eteläranta", "Kauppatori"]


@pytest.mark.parametrize("item", [STMF, FRIEDA])
def test_names_a_thing_added_after_the_clause_is_no_name(item: dict[str, str]) -> None:
    assert value(item, "Lidl and Alepa are both visible, and the park too.")["names"] == [
        "Lidl", "Alepa"]
    assert value(item, "Lidl and Alepa are both visible, and Kuu too.")["names"] == [
        "Lidl", "Alepa", "Kuu"]
    assert invalid(item, "Lidl and Alepa are both visible, and maybe the park too.")


# ------------------------------- 2b. STMF names: a gloss in brackets the map does not write
def _stmf(names: list[str]) -> dict[str, object]:
    return dict(STMF, provenance={"map_names": names})


@pytest.mark.parametrize("response, names", [
    ("Answer: Suomen Pankki (Bank of Finland)", ["Suomen Pankki"]),
    ('Answer: ["Suomen Pankki (Bank of Finland)", "Topelias"]', ["Suomen Pankki", "Topelias"]),
    ("The banks are Suomen Pankki (Bank of Finland) and Topelias.",
     ["Suomen Pankki", "Topelias"]),
])
def test_stmf_a_gloss_the_map_does_not_write_is_dropped(response: str,
                                                        names: list[str]) -> None:
    assert value(_stmf(["Suomen Pankki", "Topelias"]), response)["names"] == names


def test_stmf_a_bracket_the_map_writes_or_no_map_names_keep_it() -> None:
    assert value(_stmf(["Ravintola Ragu (Italian kitchen)", "El Greco"]),
                 'Answer: ["Ravintola Ragu (Italian kitchen)", "El Greco"]')["names"] == [
        "Ravintola Ragu (Italian kitchen)", "El Greco"]
    assert value(STMF, "Answer: Suomen Pankki (Bank of Finland)")["names"] == [
        "Suomen Pankki (Bank of Finland)"]
