"""Property tests: no parser raises on any text; a correct answer in any supported style
scores as correct."""

from __future__ import annotations

import json
import os
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cartoqa.declarations.dispatch import parse_response
from cartoqa.metrics import exact_route, list_prf, names_match
from cartoqa.parsing import ACTIONS, Parsed
from cartoqa.scoring import score_predictions

# scripts/mutation.py runs these once per mutant: it asks for fewer, fixed examples.
_MUTATION_EXAMPLES = os.environ.get("CARTOQA_MUTATION_EXAMPLES")
SETTINGS = settings(max_examples=int(_MUTATION_EXAMPLES or 150), deadline=None,
                    derandomize=_MUTATION_EXAMPLES is not None,
                    suppress_health_check=[HealthCheck.too_slow])

ITEMS: list[dict[str, Any]] = [
    {"task": "mfs", "request": "choice", "options": {"A": "pharmacy", "B": "bank", "C": "park",
                                                     "D": "parking", "E": "bus stop"}},
    {"task": "stmf", "request": "presence"},
    {"task": "stmf", "request": "count"},
    {"task": "stmf", "request": "names"},
    {"task": "mtmf", "request": "all",
     "answer": {"types": {"restaurant": {"count": 1, "names": []},
                          "coffee shop": {"count": 0, "names": []}}}},
    {"task": "rle", "request": "length", "answer": {"value": 10.0, "unit": "ft"}},
    {"task": "mml", "request": "roads"},
    {"task": "srn", "request": "route"},
]

# text rich in the characters the parsers look for
SPICY = st.text(alphabet=st.sampled_from(list("[]{}()\"',:;-*_`#>\n .0123456789ABCDEabcde"
                                              "yesnoYESNOkmftmi→–\u202fäöé")), max_size=300)


@SETTINGS
@given(text=st.one_of(st.text(max_size=400), SPICY), which=st.integers(0, len(ITEMS) - 1))
@example(text="{" * 500, which=4)
@example(text="[" * 500 + "blue", which=7)
@example(text="1" * 5000, which=2)
@example(text="Answer:" * 200, which=0)
def test_no_parser_raises(text: str, which: int) -> None:
    result = parse_response(ITEMS[which], text)
    assert result.valid in (True, False)
    if not result.valid:
        assert result.reason  # type: ignore[union-attr]


def _case(draw: st.DrawFn, word: str) -> str:
    style = draw(st.sampled_from(["lower", "upper", "title", "same"]))
    return {"lower": word.lower(), "upper": word.upper(), "title": word.title(),
            "same": word}[style]


def _score(item: dict[str, Any], text: str) -> dict[str, Any]:
    item = {"id": "x", **item}
    report = score_predictions([item], {"x": text})
    return next(iter(report["sections"].values()))


# --- MFS ----------------------------------------------------------------------------

MFS_STYLES = ["{L}", "{l}", "({l})", "({L})", "[{L}]", "**{L}**", "Answer: {L}", "answer: {l}",
              "ANSWER: {L}", "Answer:{L}", "The answer is {L}.", "The answer is ({l}).",
              "Final answer: **{L}**", "{L}) {label}", "{L}. {label}", "Answer: ({L}) {label}",
              "The correct option is {L}", "I choose {L}.", "{L} is correct."]
PREAMBLES = ["", "Looking at the symbol.\n", "This icon is typical.\n\n",
             "<think>It could be any of them.</think>"]


@SETTINGS
@given(data=st.data())
def test_mfs_any_style(data: st.DataObject) -> None:
    item = dict(ITEMS[0])
    letter = data.draw(st.sampled_from("ABCDE"))
    style = data.draw(st.sampled_from(MFS_STYLES))
    text = data.draw(st.sampled_from(PREAMBLES)) + style.format(
        L=letter, l=letter.lower(), label=item["options"][letter])
    item["answer"] = {"letter": letter}
    assert _score(item, text)["metrics"]["accuracy"]["all"] == 1.0, text


# --- yes / no -----------------------------------------------------------------------

YES_NO_STYLES = ["{w}", "{w}.", "**{w}**", "Answer: {w}", "The answer is {w}.", "{w}, {why}",
                 "{w} - {why}", "{why}\nAnswer: {w}"]


@SETTINGS
@given(data=st.data())
def test_presence_any_style(data: st.DataObject) -> None:
    present = data.draw(st.booleans())
    word = _case(data.draw, "yes" if present else "no")
    why = data.draw(st.sampled_from(["I checked the whole map.", "see the map",
                                     "the symbol is clear"]))
    text = data.draw(st.sampled_from(YES_NO_STYLES)).format(w=word, why=why)
    item = {**ITEMS[1], "answer": {"present": present}}
    assert _score(item, text)["metrics"]["accuracy"]["all"] == 1.0, text


# --- counts -------------------------------------------------------------------------

_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words(n: int) -> str:
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + ("" if ones == 0 else "-" + _ONES[ones])


@SETTINGS
@given(n=st.integers(0, 250_000), data=st.data())
def test_count_any_style(n: int, data: st.DataObject) -> None:
    styles = ["{n}", "{c}", "Answer: {c}", "There are {n} features.", "**{n}**",
              "I count {c} of them.", "Total: {n}", "{n}."]
    if n < 100:
        styles += ["{w}", "There are {w} of them.", "Answer: {w}"]
    words = _words(n) if n < 100 else ""
    text = data.draw(st.sampled_from(styles)).format(n=n, c=f"{n:,}", w=words)
    item = {**ITEMS[2], "answer": {"count": n}}
    section = _score(item, text)
    assert section["metrics"]["accuracy"]["all"] == 1.0, text


# --- lengths ------------------------------------------------------------------------

UNITS = {"m": (1.0, ["m", " m", " meters", " metres"]),
         "km": (1000.0, [" km", "km", " kilometers", " kilometres"]),
         "ft": (0.3048, [" ft", "ft", " feet"]),
         "mi": (1609.344, [" mi", " miles"])}


@SETTINGS
@given(value_m=st.floats(1.0, 20_000.0), item_unit=st.sampled_from(["m", "ft"]),
       data=st.data())
def test_length_any_unit_and_style(value_m: float, item_unit: str, data: st.DataObject) -> None:
    unit = data.draw(st.sampled_from(sorted(UNITS)))
    per, spellings = UNITS[unit]
    written = value_m / per
    number = data.draw(st.sampled_from([f"{written:.9f}", f"{written:,.9f}"]))
    text = data.draw(st.sampled_from(["{q}", "Answer: {q}", "About {q}.",
                                      "The path is {q} long.", "**{q}**"])).format(
        q=number + data.draw(st.sampled_from(spellings)))
    true_value = value_m / UNITS[item_unit][0]
    item = {**ITEMS[5], "answer": {"value": true_value, "unit": item_unit}}
    parsed = parse_response(item, text)
    assert isinstance(parsed, Parsed), text
    assert abs(parsed.value["value"] - true_value) <= 1e-6 * true_value, text
    section = _score(item, text)
    assert section["metrics"]["mape"]["all"] < 1e-4


# --- names and roads ----------------------------------------------------------------

_RESERVED = {"and", "none", "no", "nothing", "answer", "the", "n", "na", "a", "blue", "red",
             "left", "right", "straight", "turn", "continue", "go", "keep", "then", "start",
             "end", "origin", "destination", "finish", "next", "finally", "step", "onto",
             "on", "to", "into", "via", "along", "down", "up", "around", "uturn", "at",
             "from", "reach", "marker", "route", "road", "roads", "final", "there", "i",
             "sorry", "unable", "apologise", "apologize"}
WORD = st.from_regex(r"[A-ZÄÖÅÉ][a-zäöåé]{2,9}", fullmatch=True)
NAME = st.lists(WORD, min_size=1, max_size=3).map(" ".join).filter(
    lambda s: not {w.lower() for w in s.split()} & _RESERVED)


@SETTINGS
@given(names=st.lists(NAME, min_size=0, max_size=6), data=st.data())
def test_names_any_style(names: list[str], data: st.DataObject) -> None:
    styles = ["lines", "dash", "star", "numbered", "json", "header"]
    if names:
        styles += ["comma", "answer-comma"]
    if len(names) >= 3:  # "A and B" alone stays one name: names may hold "and"
        styles += ["oxford"]
    style = data.draw(st.sampled_from(styles))
    if not names:
        text = data.draw(st.sampled_from(["None", "none.", "[]", "There are no named ones."]))
        text = text if style != "json" else "[]"
    elif style == "lines":
        text = "\n".join(names)
    elif style == "dash":
        text = "\n".join(f"- {n}" for n in names)
    elif style == "star":
        text = "\n".join(f"* **{n}**" for n in names)
    elif style == "numbered":
        text = "\n".join(f"{i}. {n}" for i, n in enumerate(names, 1))
    elif style == "json":
        text = json.dumps(names, ensure_ascii=data.draw(st.booleans()))
    elif style == "header":
        text = "The names are:\n" + "\n".join(f"- {n}" for n in names)
    elif style == "comma":
        text = ", ".join(names)
    elif style == "answer-comma":
        text = "Answer: " + "; ".join(names)
    else:
        text = ", ".join(names[:-1]) + " and " + names[-1]
    item = {**ITEMS[3], "answer": {"names": names}}
    parsed = parse_response(item, text)
    assert isinstance(parsed, Parsed), text
    assert list_prf(names, parsed.value["names"]).f1 == 1.0, (text, parsed.value)
    assert _score(item, text)["metrics"]["f1"]["all"] == 1.0


@SETTINGS
@given(a=NAME, b=NAME, data=st.data())
def test_roads_any_style(a: str, b: str, data: st.DataObject) -> None:
    first, second = data.draw(st.permutations([a, b]))
    style = data.draw(st.sampled_from([
        "{x}, {y}", "{x} and {y}", "{x} & {y}", "- {x}\n- {y}", "{x}\n{y}",
        "Road 1: {x}\nRoad 2: {y}", "The marker is at the intersection of {x} and {y}.",
        "Answer: {x}; {y}", '["{x}", "{y}"]', "**{x}**, **{y}**"]))
    text = style.format(x=first, y=second)
    item = {**ITEMS[6], "answer": {"roads": [a, b]}}
    assert _score(item, text)["metrics"]["accuracy"]["all"] == 1.0, text


# --- routes -------------------------------------------------------------------------


@st.composite
def routes(draw: st.DrawFn) -> list[str]:
    pairs = draw(st.lists(st.tuples(st.sampled_from(ACTIONS), NAME), min_size=1, max_size=5))
    return ["blue", *[x for pair in pairs for x in pair], "red"]


def _spaces(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(["", " ", "  "]))


@SETTINGS
@given(route=routes(), data=st.data())
def test_route_any_style(route: list[str], data: st.DataObject) -> None:
    style = data.draw(st.sampled_from(["brackets", "json", "python", "bare", "arrows", "upper",
                                       "answer", "lines"]))
    words = [_case(data.draw, s) if data.draw(st.booleans()) else s for s in route]
    if style == "brackets":
        text = "[" + ",".join(_spaces(data.draw) + w + _spaces(data.draw) for w in words) + "]"
    elif style == "json":
        text = json.dumps(words, ensure_ascii=False)
    elif style == "python":
        text = "[" + ", ".join(f"'{w}'" for w in words) + "]"
    elif style == "bare":
        text = ", ".join(words)
    elif style == "arrows":
        text = data.draw(st.sampled_from([" -> ", " → ", "->"])).join(words)
    elif style == "upper":
        text = "[" + ", ".join(w.upper() for w in words) + "]"
    elif style == "answer":
        text = "Let me trace the streets.\nAnswer: [" + ", ".join(words) + "]"
    else:
        text = "\n".join(words)
    item = {**ITEMS[7], "answer": {"steps": route}}
    parsed = parse_response(item, text)
    assert isinstance(parsed, Parsed), text
    assert exact_route(route, parsed.value["steps"]), (text, parsed.value)
    section = _score(item, text)
    assert section["metrics"]["exact_route"]["all"] == 1.0
    assert section["metrics"]["step_accuracy"]["all"] == 1.0


@SETTINGS
@given(name=NAME)
def test_name_matching_ignores_case_and_accents(name: str) -> None:
    assert names_match(name, name.upper())
    assert names_match(name, f"  {name.lower()}. ")
