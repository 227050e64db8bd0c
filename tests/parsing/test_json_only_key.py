"""A JSON object whose only key is not ``answer`` (issue 24, grade24h; grade24g class D):
``{"area": "B"}``, ``{"ranking": [...]}`` give their value. Hand-written expectations."""

from __future__ import annotations

from cartoqa.declarations.dispatch import parse_response

EQUAL_Q = ("Map 2 outlines two areas, Area A and Area B. Which of them covers exactly the "
           "same ground as Hauki? Answer A or B.")


def test_only_key_of_an_object_is_the_answer() -> None:
    frieda = {"task": "frieda_equal", "request": "textual", "question": EQUAL_Q}
    assert parse_response(frieda, '{"area": "B"}').value == {"names": ["B"]}
    rank = {"task": "mapwise_rank", "request": "rank", "provenance": {"country": "china"}}
    got = parse_response(rank, '```json\n{"ranking": ["Beijing", "Hunan", "Qinghai"]}\n```')
    assert got.value == {"ranks": {"BJ": 1, "HN": 2, "QH": 3}}
    lst = {"task": "mapwise_list", "request": "list", "provenance": {"country": "usa"}}
    assert parse_response(lst, '{"states": ["Texas", "Ohio"]}').value == {"items": ["OH", "TX"]}


def test_near_cases() -> None:
    frieda = {"task": "frieda_equal", "request": "textual", "question": EQUAL_Q}
    # reasoning alone is no answer; two keys are not guessed between
    assert not parse_response(frieda, '{"reasoning": "B has the same shape"}').valid
    assert not parse_response(frieda, '{"area": "B", "other": "A"}').valid
    # a hedge inside the value stays a hedge
    assert not parse_response(frieda, '{"area": "A or B"}').valid
    # MTMF keeps reading its own objects: one type key is a count of that type
    mtmf = {"task": "mtmf", "request": "all",
            "answer": {"types": {"restaurant": {"count": 0, "names": []},
                                 "bank": {"count": 0, "names": []}}}}
    got = parse_response(mtmf, '{"restaurants": 2}')
    assert got.value["types"]["restaurant"] == {"count": 2, "names": []}
    # a ranking read whole without notes is not replaced
    rank = {"task": "mapwise_rank", "request": "rank", "provenance": {"country": "china"}}
    assert parse_response(rank, "My answer is [Beijing, Hunan]").value == {
        "ranks": {"BJ": 1, "HN": 2}}


def test_a_response_that_is_only_json_is_read_by_its_value() -> None:
    frieda = {"task": "frieda_border", "request": "textual",
              "question": "Which feature borders Aikatalo (the building)?"}
    assert parse_response(frieda, '{"name": "Mikonkatu"}').value == {"names": ["Mikonkatu"]}
    stmf = {"task": "stmf", "request": "names", "strata": {"feature_type": "restaurant"}}
    assert parse_response(stmf, '```json\n{"restaurants": ["Hiisi", "Kuu"]}\n```').value == {
        "names": ["Hiisi", "Kuu"]}
    # a key that says the value is a guess is no answer
    single = {"task": "mapwise_single", "request": "single", "provenance": {"country": "usa"}}
    assert not parse_response(single, '{"guess": "Texas"}').valid
    # MTMF's own objects are still MTMF's
    mtmf = {"task": "mtmf", "request": "all",
            "answer": {"types": {"restaurant": {"count": 0, "names": []}}}}
    assert parse_response(mtmf, '{"restaurants": 2}').value["types"]["restaurant"]["count"] == 2
