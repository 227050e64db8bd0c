"""The answer space derived from the declarations: leaf kinds and their values."""

from __future__ import annotations

from helpers.baseline_items import OPTIONS, counts, item, mfs, presence

from cartoqa.declarations.answer_space import answer_space


def _kinds(items, task, request):
    return {leaf.name: leaf.kind for leaf in answer_space(items, task, request).leaves}


def test_kinds_come_from_the_schema_and_the_answers():
    items = [*presence([True, False]), *counts([0, 2]), *mfs(["park", "bank"])]
    assert _kinds(items, "stmf", "presence") == {"present": "boolean"}
    assert _kinds(items, "stmf", "count") == {"count": "integer"}
    assert _kinds(items, "mfs", "choice") == {"letter": "letter", "label": "label"}
    assert answer_space(items, "stmf", "count").leaves[0].values == (0, 2)


def test_strata_given_and_enum_and_const():
    rle = [item("rle-0", "rle", "length", {"value": 120.0, "unit": "ft"}, "How long?",
                strata={"unit": "ft"})]
    assert _kinds(rle, "rle", "length") == {"value": "number", "unit": "given"}
    frieda = [item("o-0", "frieda_orientation", "cardinal",
                   {"type": "cardinal", "direction": "west"}, "Where?")]
    assert _kinds(frieda, "frieda_orientation", "cardinal") == {"type": "const",
                                                                "direction": "enum"}


def test_open_keys_become_leaves_and_names_are_text():
    mtmf = [item("mtmf-0", "mtmf", "all", {"types": {
        "bank": {"count": 1, "names": ["Nordea"]}, "park": {"count": 0, "names": []}}}, "?")]
    space = answer_space(mtmf, "mtmf", "all")
    assert [leaf.name for leaf in space.leaves] == [
        "types.bank.count", "types.bank.names", "types.park.count", "types.park.names"]
    assert space.has_text()
    assert not answer_space(mfs(["park"]), "mfs", "choice").has_text()
    assert OPTIONS["B"] == "park"


def test_free_values_pool_the_suites_other_tasks():
    a = item("mapwise_list-0", "mapwise_list", "list", {"items": ["TX"]}, "Which?")
    b = item("mapwise_list-1", "mapwise_list", "list", {"items": ["OH", "IA"]}, "Which?")
    space = answer_space([a, b], "mapwise_list", "list")
    assert space.leaves[0].kind == "free"
    assert space.leaves[0].strings() == ["TX", "OH", "IA"]


def test_a_list_of_another_vocabulary_does_not_widen():
    # MapIQ's Regional Comparisons list zones, its other tasks states: a zone list
    # widened by states made the random baseline answer with states (issue 29)
    zones = [item(f"mapiq_rc-{i}", "mapiq_rc", "list", {"items": v}, "List?")
             for i, v in enumerate([["South"], ["West", "Midwest"]])]
    states = [item(f"mapiq_{t}-0", f"mapiq_{t}", "list", {"items": v}, "List?")
              for t, v in (("rv", ["TX", "OK"]), ("se", ["OK", "CA"]))]
    rc = answer_space([*zones, *states], "mapiq_rc", "list").leaves[0]
    assert rc.elements() == ["South", "West", "Midwest"]
    # state lists of two tasks share a state: the other task's widen the space
    rv = answer_space([*zones, *states], "mapiq_rv", "list").leaves[0]
    assert rv.elements() == ["TX", "OK", "CA"]
