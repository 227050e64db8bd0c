"""A translation in brackets after a name is not part of it (issue 24, grade24e class:
fresh7#100). Hand-written expectations, with near cases that must not change."""

from __future__ import annotations

from cartoqa.declarations.dispatch import parse_response

FRIEDA = {"task": "frieda_within", "request": "textual",
          "question": "Which of these features lies within Kirahvi? Answer with its name."}
STMF = {"task": "stmf", "request": "names"}


def names(item: dict[str, object], text: str) -> list[str]:
    return list(parse_response(item, text).value["names"])


def test_frieda_gloss_dropped() -> None:
    assert names(FRIEDA, "Answer: Helsingin yliopiston päärakennus (University of Helsinki "
                         "Main Building)") == ["Helsingin yliopiston päärakennus"]
    assert names(FRIEDA, "Answer: Kauppatori (Market Square)") == ["Kauppatori"]


def test_street_names_keep_their_brackets() -> None:
    # OSM names on the street maps carry such brackets ("Ravintola Aino (Finnish cuisine)")
    assert names(STMF, 'Answer: ["Ravintola Aino (Finnish cuisine)", "Ekberg"]') == [
        "Ravintola Aino (Finnish cuisine)", "Ekberg"]


def test_near_cases_kept() -> None:
    # one capitalised word in brackets may be part of the name; a bracket inside a name stays
    assert names(FRIEDA, "Answer: Xizang (Tibet)") == ["Xizang (Tibet)"]
    assert names(FRIEDA, "Answer: Bar (Old Town) Kallio") == ["Bar (Old Town) Kallio"]
    # a lower-case description was already dropped
    assert names(FRIEDA, "Answer: Porthania (the building)") == ["Porthania"]
