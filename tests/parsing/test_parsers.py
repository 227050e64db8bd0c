"""Parsers on the answers real models write, and on answers that must stay invalid."""

from __future__ import annotations

import pytest

from cartoqa.declarations.dispatch import parse_response
from cartoqa.parsing import (
    Invalid,
    Parsed,
    parse_choice,
    parse_count,
    parse_length,
    parse_multi,
    parse_names,
    parse_roads,
    parse_route,
    parse_yes_no,
)

OPTIONS = {"A": "pharmacy", "B": "bank", "C": "park", "D": "parking", "E": "bus stop"}


def _value(result: Parsed | Invalid) -> dict:
    assert isinstance(result, Parsed), result
    return result.value


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("Answer: C", "C"),  # the published scorer read this as A
        ("ANSWER: C", "C"),
        ("Answer:C", "C"),
        ("(c)", "C"),
        ("**C**", "C"),
        ("The answer is C.", "C"),
        ("The answer is (d)", "D"),
        ("answer: b", "B"),
        ("Final answer: **E**", "E"),
        ("C) park", "C"),
        ("Looking at the icon, it is a park.\n\nAnswer: C", "C"),
        ("Option A is a pharmacy and B a bank.\nFinal answer: C", "C"),
        ("I choose b.", "B"),
        ("The correct option is A", "A"),
        ("<think>maybe A? or B</think>Answer: D", "D"),
        ("The answer is a parking lot.", "D"),  # an article, then a label
        ("It is a bus stop", "E"),
    ],
)
def test_choice(text: str, letter: str) -> None:
    assert _value(parse_choice(text, options=OPTIONS)) == {"letter": letter}


@pytest.mark.parametrize(
    "text",
    ["", "   ", "I am not sure.", "Option A is a pharmacy, option B a bank. It is C.",
     "A or C"],
)
def test_choice_invalid(text: str) -> None:
    result = parse_choice(text, options=OPTIONS)
    assert isinstance(result, Invalid) and result.reason


def test_choice_answer_c_is_never_a() -> None:
    for text in ["Answer: C", "Answer C", "answer - C", "Answer: C\n", "**Answer**: C"]:
        assert _value(parse_choice(text)) == {"letter": "C"}, text


@pytest.mark.parametrize(
    ("text", "present"),
    [("Yes", True), ("no", False), ("YES.", True), ("No, there is none.", False),
     ("**Yes** - a green cross near the top.", True), ("Answer: no", False),
     ("There is no pharmacy on this map.", False), ("I cannot see any pharmacy.", False),
     ("A pharmacy is visible near the park.", True), ("True", True), ("n", False),
     ("The answer is yes.", True)],
)
def test_yes_no(text: str, present: bool) -> None:
    assert _value(parse_yes_no(text)) == {"present": present}


@pytest.mark.parametrize(
    "text",
    ["", "Maybe.", "I do not know whether yes or no.", "No idea.",
     "I cannot tell whether there is a pharmacy.", "Sorry, it is unclear; there is a cross."],
)
def test_yes_no_invalid(text: str) -> None:
    assert isinstance(parse_yes_no(text), Invalid)


@pytest.mark.parametrize(
    ("text", "count"),
    [("3", 3), ("There are 3 restaurants.", 3), ("Answer: 1,204", 1204), ("twelve", 12),
     ("Twenty-one.", 21), ("one hundred and five", 105), ("0", 0), ("None.", 0),
     ("There are no restaurants on the map.", 0), ("zero", 0), ("**7**", 7),
     ("1. Savotta\n2. Kuu\nTotal: 2", 2), ("I count 4 (four) restaurants.", 4),
     ("1\u202f204", 1204), ("3.0", 3), ("No restaurants are shown on the map.", 0)],
)
def test_count(text: str, count: int) -> None:
    assert _value(parse_count(text)) == {"count": count}


@pytest.mark.parametrize(
    "text",
    ["", "some", "I see 3 at zoom 19", "many restaurants", "No idea.",
     "There is no way to count them.", "I cannot count them, sorry."],
)
def test_count_invalid(text: str) -> None:
    assert isinstance(parse_count(text), Invalid)


@pytest.mark.parametrize(
    ("text", "unit", "value"),
    [
        ("1.2 km", "m", 1200.0),
        ("3,280 ft", "m", 3280 * 0.3048),
        ("850m", "m", 850.0),
        ("0.5 miles", "m", 804.672),
        ("0.5 mi", "ft", 2640.0),
        ("About 523.4 meters.", "m", 523.4),
        ("1000 feet", "ft", 1000.0),
        ("300 m", "ft", 300 / 0.3048),
        ("520 m (1,706 ft)", "m", 520.0),
        ("Using the 100 m scale bar.\nAnswer: 525 m", "m", 525.0),
        ("The scale bar shows 100 m.\nThe path is 350 m long.", "m", 350.0),
        ("1,5 km", "m", 1500.0),
        ("Answer: 87", "m", 87.0),
    ],
)
def test_length(text: str, unit: str, value: float) -> None:
    parsed = _value(parse_length(text, unit=unit))
    assert parsed["unit"] == unit
    assert parsed["value"] == pytest.approx(value)


def test_length_without_unit_is_read_in_the_item_unit_with_a_note() -> None:
    result = parse_length("523", unit="ft")
    assert isinstance(result, Parsed) and result.value["value"] == 523.0
    assert result.notes and "ft" in result.notes[0]


@pytest.mark.parametrize(
    "text",
    ["", "far", "500-600 m", "between 500 and 600 meters",
     "The path is about 525 m; the other branch is 600 m."],
)
def test_length_invalid(text: str) -> None:
    assert isinstance(parse_length(text, unit="m"), Invalid)


def test_scale_bar_length_is_not_the_answer() -> None:
    # the first length after "scale bar" is the bar's own; the other one is the answer
    result = parse_length("The scale bar is 100 m; the path is about 525 m.", unit="m")
    assert _value(result)["value"] == 525.0


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Café Ekberg\nKaffa Roastery", ["Café Ekberg", "Kaffa Roastery"]),
        ("Café Ekberg, Kaffa Roastery", ["Café Ekberg", "Kaffa Roastery"]),
        ("- Café Ekberg\n- Kaffa Roastery", ["Café Ekberg", "Kaffa Roastery"]),
        ("* Café Ekberg\n* **Kaffa Roastery**", ["Café Ekberg", "Kaffa Roastery"]),
        ("1. Café Ekberg\n2) Kaffa Roastery", ["Café Ekberg", "Kaffa Roastery"]),
        ('["Café Ekberg", "Kaffa Roastery"]', ["Café Ekberg", "Kaffa Roastery"]),
        ("The coffee shops are:\n- A\n- B\nThat is all.", ["A", "B"]),
        ("Answer: A, B and C", ["A", "B", "C"]),
        ("The cafés on the map are: Engel, Ekberg and Fazer.", ["Engel", "Ekberg", "Fazer"]),
        ("- Fish and Chips\n- Marks & Spencer", ["Fish and Chips", "Marks & Spencer"]),
        ("None", []),
        ("There are no named coffee shops.", []),
        ("[]", []),
    ],
)
def test_names(text: str, names: list[str]) -> None:
    assert _value(parse_names(text)) == {"names": names}


REFUSALS = ["", "I cannot read the labels on this map because they are far too small.",
            "I'm sorry, I cannot help with that image.", "Sorry, the labels are unreadable.",
            "I see two cafes and a bank."]


@pytest.mark.parametrize("text", REFUSALS)
def test_names_invalid(text: str) -> None:
    assert isinstance(parse_names(text), Invalid)


@pytest.mark.parametrize("text", REFUSALS)
def test_roads_invalid(text: str) -> None:
    assert isinstance(parse_roads(text), Invalid)


@pytest.mark.parametrize(
    "text",
    [
        "Mannerheimintie, Lönnrotinkatu",
        "Mannerheimintie and Lönnrotinkatu",
        "Mannerheimintie & Lönnrotinkatu",
        "- Mannerheimintie\n- Lönnrotinkatu",
        "Road 1: Mannerheimintie\nRoad 2: Lönnrotinkatu",
        "The blue marker is at the intersection of Mannerheimintie and Lönnrotinkatu.",
        "Answer: Mannerheimintie; Lönnrotinkatu",
        '["Mannerheimintie", "Lönnrotinkatu"]',
        "I believe the roads are Mannerheimintie and Lönnrotinkatu.",
    ],
)
def test_roads(text: str) -> None:
    assert _value(parse_roads(text)) == {"roads": ["Mannerheimintie", "Lönnrotinkatu"]}


TYPES = ["restaurant", "coffee shop", "fitness centre", "bus stop", "atm"]


def test_multi_in_a_code_fence_with_trailing_text() -> None:
    text = ('Here is my answer:\n```json\n{"restaurant": {"count": 2, "names": ["Savotta"]},\n'
            ' "Coffee Shops": {"count": 1, "names": []},}\n```\nLet me know if you need more.')
    result = parse_multi(text, types=TYPES)
    assert isinstance(result, Parsed)
    types = result.value["types"]
    assert types["restaurant"] == {"count": 2, "names": ["Savotta"]}
    assert types["coffee shop"] == {"count": 1, "names": []}
    assert types["atm"] == {"count": 0, "names": []}  # left out: read as 0, with a note
    assert any("missing" in n for n in result.notes)


def test_multi_other_shapes() -> None:
    text = ("{'types': {'gym': 1, 'Bus_Stops': ['Kamppi', 'Lasipalatsi'], "
            "'ATM': {'count': '3'}}} hope this helps")
    types = _value(parse_multi(text, types=TYPES))["types"]
    assert types["fitness centre"]["count"] == 1
    assert types["bus stop"] == {"count": 2, "names": ["Kamppi", "Lasipalatsi"]}
    assert types["atm"]["count"] == 3
    rows = '[{"type": "restaurant", "count": 4, "names": ["A"]}]'
    assert _value(parse_multi(rows, types=TYPES))["types"]["restaurant"]["count"] == 4


@pytest.mark.parametrize("text", ["", "no json here", '{"cats": 3}', "{broken"])
def test_multi_invalid(text: str) -> None:
    assert isinstance(parse_multi(text, types=TYPES), Invalid)


STEPS = ["blue", "turn left", "Mannerheimintie", "make a U-turn and continue straight",
         "Lönnrotinkatu", "red"]


@pytest.mark.parametrize(
    "text",
    [
        "[blue, turn left, Mannerheimintie, make a U-turn and continue straight, "
        "Lönnrotinkatu, red]",
        '["blue", "turn left", "Mannerheimintie", "make a U-turn and continue straight", '
        '"Lönnrotinkatu", "red"]',
        "['blue', 'turn left', 'Mannerheimintie', 'make a U-turn and continue straight', "
        "'Lönnrotinkatu', 'red']",
        "blue, turn left, Mannerheimintie, make a U-turn and continue straight, "
        "Lönnrotinkatu, red",
        "  [ BLUE ,   Turn Left,Mannerheimintie ,  MAKE A U-TURN AND CONTINUE STRAIGHT , "
        "Lönnrotinkatu,RED ]  ",
        "blue -> left -> Mannerheimintie -> U-turn -> Lönnrotinkatu -> red",
        "Answer: [blue, turn left, Mannerheimintie, make a U-turn and continue straight, "
        "Lönnrotinkatu, red]",
        "Route:\nblue\nturn left onto Mannerheimintie\nmake a U-turn and continue straight on "
        "Lönnrotinkatu\nred",
        "**[blue, turn left, Mannerheimintie, make a U-turn and continue straight, "
        "Lönnrotinkatu, red]**",
    ],
)
def test_route(text: str) -> None:
    steps = _value(parse_route(text))["steps"]
    assert [s.lower() for s in steps] == [s.lower() for s in STEPS]


@pytest.mark.parametrize(
    "text",
    ["", "[]", "I cannot determine the route.", "Sorry.\nI cannot do this.", "[Mannerheimintie]"],
)
def test_route_invalid(text: str) -> None:
    assert isinstance(parse_route(text), Invalid)


def test_parse_response_dispatch_and_missing_prediction() -> None:
    assert isinstance(parse_response({"task": "mfs", "request": "choice"}, None), Invalid)
    assert isinstance(parse_response({"task": "xyz", "request": "q"}, "A"), Invalid)
    rle = {"task": "rle", "request": "length", "answer": {"value": 1.0, "unit": "ft"}}
    assert _value(parse_response(rle, "1 m"))["value"] == pytest.approx(1 / 0.3048)


#: CartoMapQA's 22 feature types (its paper's Table 9), as its prompts name them.
CARTOMAPQA_TYPES = [
    "Convenience store", "Supermarket", "Drug store/pharmacy", "General clinic", "Hospital",
    "Restaurant", "Fast food store", "Coffee shop", "ATM or cash point", "Bank", "Playground",
    "Park area", "Fitness center", "Clothes shop", "Beauty shop", "Water stream", "River",
    "Bus stop", "Gas station", "Primary road", "Car parking lot", "Public toilet",
]


def test_one_synonym_table_covers_the_catalogue_both_ways() -> None:
    from cartoqa.parsing import FEATURE_TYPE_SYNONYMS, canonical_type, cartomapqa_name
    from groundtruth.catalogue import feature_type_names

    names = feature_type_names()
    assert set(FEATURE_TYPE_SYNONYMS) == set(names)
    read = [canonical_type(t) for t in CARTOMAPQA_TYPES]
    assert None not in read and sorted(map(str, read)) == sorted(names)
    for name in names:
        assert canonical_type(cartomapqa_name(name)) == name
        for synonym in FEATURE_TYPE_SYNONYMS[name]:
            assert canonical_type(synonym, names) == name, synonym
    assert [cartomapqa_name(n) for n in ("fast food", "parking", "ATM")] == [
        "Fast food store", "Car parking lot", "ATM or cash point"]
