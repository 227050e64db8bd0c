"""Names joined by ``&`` / ``and``: split by the names the map writes (issue 24, grade24h).

``Answer: Hiisi & Lost In Helsinki`` is two restaurants when the map writes *Hiisi* and
*Lost In Helsinki*; ``Day & Nite Sushi Bar`` is one when the map writes it whole. The
reader decides from ``provenance.map_names`` (every legible name on the map, of every
type: what the image shows) or FRIEDA's legend labels, never from the item's answer.
Expectations are written by hand.
"""

from __future__ import annotations

from typing import Any

import pytest

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing.lists import parse_names
from cartoqa.parsing.map_names import item_map_names, split_joined

#: A map that writes these names (restaurants, a bank, a street) whatever is asked.
MAP = ["Hiisi", "Lost In Helsinki", "Day & Nite Sushi Bar", "Fish and Chips", "Nordea",
       "Mikonkatu"]


def stmf(map_names: list[str] | None = MAP, answer: list[str] | None = None
         ) -> dict[str, Any]:
    item: dict[str, Any] = {"task": "stmf", "request": "names",
                            "strata": {"feature_type": "restaurant"},
                            "answer": {"names": answer or [], "unnamed": 0}}
    if map_names is not None:
        item["provenance"] = {"map_names": map_names}
    return item


def names(item: dict[str, Any], text: str) -> list[str] | None:
    result = parse_response(item, text)
    return result.value["names"] if result.valid else None


@pytest.mark.parametrize(("text", "expected"), [
    ("Answer: Hiisi & Lost In Helsinki", ["Hiisi", "Lost In Helsinki"]),
    ("Answer: Hiisi and Lost in Helsinki", ["Hiisi", "Lost in Helsinki"]),
    ("Answer: Day & Nite Sushi Bar", ["Day & Nite Sushi Bar"]),
    ("Answer: Day & Nite Sushi Bar & Hiisi", ["Day & Nite Sushi Bar", "Hiisi"]),
    ("Answer: Hiisi, Fish and Chips", ["Hiisi", "Fish and Chips"]),
    ("The restaurants are Hiisi and Fish and Chips.", ["Hiisi", "Fish and Chips"]),
    ("- Hiisi & Lost In Helsinki\n- Day & Nite Sushi Bar",
     ["Hiisi", "Lost In Helsinki", "Day & Nite Sushi Bar"]),
    # one part is a name of the map, the other is not: still two names (one wrong)
    ("Answer: Hiisi & Savotta", ["Hiisi", "Savotta"]),
    # no part is a name of the map: the list rules decide as before
    ("Answer: Savotta & Kuu", ["Savotta & Kuu"]),
    ("Answer: Nordea, Savotta and Kuu", ["Nordea", "Savotta", "Kuu"]),
])
def test_joined_names_follow_the_map(text: str, expected: list[str]) -> None:
    assert names(stmf(), text) == expected


@pytest.mark.parametrize("text", [
    "Answer: Hiisi or Lost In Helsinki",
    "Maybe Hiisi & Lost In Helsinki",
    "I'm sorry, I cannot read the labels.",
])
def test_map_names_never_make_a_hedge_or_refusal_an_answer(text: str) -> None:
    assert names(stmf(), text) is None


def test_the_answer_is_never_read() -> None:
    """The same response on the same map reads the same whatever the gold says."""
    text = "Answer: Hiisi & Lost In Helsinki"
    one = names(stmf(answer=["Hiisi & Lost In Helsinki"]), text)
    two = names(stmf(answer=["Hiisi", "Lost In Helsinki"]), text)
    assert one == two == ["Hiisi", "Lost In Helsinki"]
    # without the map's names (an item built before they were recorded) as before,
    # even when the gold would say two names
    assert names(stmf(None, answer=["Hiisi", "Lost In Helsinki"]), text) == [
        "Hiisi & Lost In Helsinki"]


def test_item_map_names_reads_the_map_and_legends_not_counted() -> None:
    assert item_map_names({"provenance": {"map_names": ["Day & Nite"]}}) == {"day and nite"}
    legend = {"provenance": {"maps": [{"features": [{"label": "Soopeli", "name": "Soopeli"}]},
                                      {"features": [{"label": "Porthania"}]}]}}
    assert item_map_names(legend) == {"soopeli", "porthania"}
    # provenance.counted holds the asked type's answer: never a source of names
    assert item_map_names({"provenance": {"counted": [{"name": "Hiisi"}]}}) == frozenset()
    assert item_map_names({}) == frozenset()


def test_split_joined_prefers_the_most_names_then_fewest_parts() -> None:
    known = {"a b", "c", "a", "b and c"}
    # "A & B and C": [A & B][C] and [A][B and C] both name two; the first found wins
    # only among equals; a split naming more names beats the whole
    assert len(split_joined("A & B and C", known, default=False)) == 2
    assert split_joined("X and Y", {"z"}, default=False) == ["X and Y"]
    assert split_joined("X and Y", {"z"}, default=True) == ["X", "Y"]
    assert split_joined("Plain", {"plain"}, default=True) == ["Plain"]


def test_parse_names_keyword_default_unchanged() -> None:
    assert parse_names("Answer: Hiisi & Lost In Helsinki").value == {
        "names": ["Hiisi & Lost In Helsinki"]}


def test_frieda_name_joined_by_and_follows_the_legend() -> None:
    question = ("The legend names the features drawn on the map. Which of the features "
                "other than Ylioppilasaukio partly overlaps Ylioppilasaukio (the square), "
                "drawn in red? Answer with its name.")
    legend = [{"label": n} for n in ("Ylioppilasaukio", "Kukko", "Soopeli", "Stockmann",
                                     "Kiasma and Sanomatalo")]
    item = {"task": "frieda_intersect", "request": "textual", "question": question,
            "provenance": {"maps": [{"features": legend}]}}
    assert parse_response(item, "Answer: Soopeli and Porthania").value == {
        "names": ["Soopeli", "Porthania"]}
    assert parse_response(item, "Answer: Kiasma and Sanomatalo").value == {
        "names": ["Kiasma and Sanomatalo"]}
    assert not parse_response(item, "Answer: Soopeli or Kukko").valid
    bare = {k: v for k, v in item.items() if k != "provenance"}
    assert parse_response(bare, "Answer: Soopeli and Porthania").value == {
        "names": ["Soopeli and Porthania"]}


def test_mtmf_names_joined_by_and_follow_the_map() -> None:
    types = ["restaurant", "bank"]
    item = {"task": "mtmf", "request": "all", "provenance": {"map_names": MAP},
            "answer": {"types": {t: {"count": 0, "names": []} for t in types}}}
    result = parse_response(item, "restaurant: 2 (Hiisi & Lost In Helsinki)\nbank: 1 (Nordea)")
    assert result.value["types"]["restaurant"] == {
        "count": 2, "names": ["Hiisi", "Lost In Helsinki"]}
    result = parse_response(item, "restaurant: 2 (Hiisi, Fish and Chips)\nbank: 0")
    assert result.value["types"]["restaurant"]["names"] == ["Hiisi", "Fish and Chips"]
