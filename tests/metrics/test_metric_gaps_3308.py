"""Metrics at the places the fresh mutation sample of seed 3308 found untested (issue 33):
FRIEDA's textual answers with and without the question, the message naming the known
metrics, the shortest route with both ends, and the counts a PRF carries.
"""

from __future__ import annotations

import pytest

from cartoqa.metrics import METRICS, get_metric, prf_from_counts, route_endpoints_ok
from cartoqa.metrics.frieda import parse_frieda
from cartoqa.parsing.textual import parse_textual

TEXTUAL = {"type": "textual", "names": ["B"]}
AREAS = "Map 2 outlines two areas, A and B. Which one holds the museum? Answer A or B."


def test_frieda_reads_an_area_by_its_letter_from_the_question() -> None:
    assert parse_frieda(TEXTUAL, "It is B.", question=AREAS).value == {"names": ["B"]}
    assert parse_frieda(TEXTUAL, "Final answer: Area A", question=AREAS).value == {
        "names": ["A"]}
    assert not parse_frieda(TEXTUAL, "it could be A or B", question=AREAS).valid


@pytest.mark.parametrize("text", [
    "X borders Mikonkatu.", "XX touches Yliopistonkatu.", "Aikatalo borders Mikonkatu.",
    "Porthania; Aikatalo", "It is B.",
])
def test_frieda_without_a_question_reads_as_the_textual_parser_without_one(text: str) -> None:
    # no question: no options, and no feature of the question to read a relation from
    assert parse_frieda(TEXTUAL, text) == parse_textual(text)
    assert parse_frieda(TEXTUAL, text).value == parse_frieda(TEXTUAL, text, question="").value


def test_an_unknown_metric_names_the_known_ones() -> None:
    with pytest.raises(KeyError) as caught:
        get_metric("bleu")
    message = caught.value.args[0]
    assert message.startswith("unknown metric 'bleu'; known: ")
    assert message.removeprefix("unknown metric 'bleu'; known: ").split(", ") == sorted(METRICS)


def test_a_route_from_blue_straight_to_red_has_both_ends() -> None:
    assert route_endpoints_ok(["blue", "red"])
    assert route_endpoints_ok(["Blue", "Red"])
    assert not route_endpoints_ok(["blue"]) and not route_endpoints_ok(["red"])
    assert not route_endpoints_ok([]) and not route_endpoints_ok(["red", "blue"])


def test_a_prf_keeps_its_counts() -> None:
    prf = prf_from_counts(2, 1, 3)
    assert (prf.tp, prf.fp, prf.fn) == (2, 1, 3)
    assert prf.precision == pytest.approx(2 / 3) and prf.recall == pytest.approx(2 / 5)
    assert prf.f1 == pytest.approx(2 * (2 / 3) * (2 / 5) / (2 / 3 + 2 / 5))
