"""The registry checks each declaration when it loads it: prompts, example lines, paths.

A task module is written to ``tmp_path`` and registered for one test: a missing prompt
file, a prompt its sample values do not fill, or an example answer line its parser
cannot read stops the load with a line naming the task; a mistyped module path in the
suite table is named as such, not as a task missing from the installation.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from cartoqa.declarations.prompts import fill, prompt, prompt_path
from cartoqa.declarations.registry import load_spec, task_specs
from cartoqa.declarations.suites import TASK_MODULES, load_task
from cartoqa.errors import CartoqaError

MODULE = """
from cartoqa.declarations.spec import RequestSpec, TaskSpec, text_parser
from cartoqa.parsing import parse_count
from cartoqa.scoring.sections import aggregate_count, measure_count

SPEC = TaskSpec(
    name="checked",
    blurb="A task for the registry's checks.",
    requests=(RequestSpec(
        "count",
        answer_schema={{"type": "object", "required": ["count"]}},
        parse=text_parser(parse_count),
        answer_text=lambda answer: f"Answer: {{answer['count']}}",
        metrics=("accuracy",),
        measure=measure_count,
        aggregate=aggregate_count,
        sample_answer={{"count": 2}},
        prompt={prompt!r},
        sample_prompt={values!r},
    ),),
    prepare=None,
    make_scenario=None,
    image_size=(10, 10),
    suite="examples",
)
"""


def _register(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, **fields: object
              ) -> None:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(MODULE.format(**fields)), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(TASK_MODULES, "checked", name)


def test_a_declaration_that_checks_out_loads(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _register(tmp_path, monkeypatch, "checked_ok", prompt="stmf_count",
              values={"feature_plural": "banks"})
    assert load_spec("checked").name == "checked"


def test_a_missing_prompt_file_is_named_when_the_task_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _register(tmp_path, monkeypatch, "checked_nofile", prompt="no_such_prompt", values={})
    with pytest.raises(ValueError, match=r"task 'checked' request 'count'.*no template file"):
        task_specs()


def test_a_prompt_its_sample_values_do_not_fill_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _register(tmp_path, monkeypatch, "checked_unfilled", prompt="stmf_count", values={})
    with pytest.raises(ValueError, match=r"sample_prompt does not fill it.*feature_plural"):
        task_specs()


def test_an_example_line_the_parser_cannot_read_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # mml's example line names two roads: no count to read
    _register(tmp_path, monkeypatch, "checked_example", prompt="mml_roads",
              values={"color": "red"})
    with pytest.raises(ValueError, match=r"example answer line 'Answer: First Street; "):
        task_specs()


def test_a_mistyped_module_path_is_named_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TASK_MODULES, "mml", "cartoqa.tasks.cartomapqa.mmll")
    with pytest.raises(CartoqaError, match="registered with module path") as exc:
        load_task("mml")
    assert "not available" not in str(exc.value)
    with pytest.raises(CartoqaError, match="registered with module path"):
        task_specs()


def test_a_task_of_a_package_not_installed_is_left_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TASK_MODULES, "absent", "cartoqa_absent_plugin.task")
    with pytest.raises(CartoqaError, match="not available in this installation"):
        load_task("absent")
    assert "absent" not in [spec.name for spec in task_specs()]


def test_every_shipped_prompt_is_declared_and_checked() -> None:
    declared = {r.prompt for spec in task_specs() for r in spec.requests if r.prompt}
    shipped = {p.stem for p in prompt_path("system").parent.glob("*.txt")}
    assert shipped - declared == {"system", "system_frieda"}


def test_optional_lines_are_left_out_when_a_value_is_missing() -> None:
    text = "Q\nA. $A\n?B. $B\n?C. $C\nend"
    assert fill(text, {"A": "a", "B": "b", "C": "c"}) == "Q\nA. a\nB. b\nC. c\nend"
    assert fill(text, {"A": "a", "B": "b"}) == "Q\nA. a\nB. b\nend"
    assert fill(text, {"A": "a", "B": "", "C": None}) == "Q\nA. a\nend"
    with pytest.raises(KeyError):
        fill(text, {"B": "b"})


def test_a_three_option_mfs_question_prints_no_empty_option() -> None:
    question = prompt("mfs_choice", kind="a point symbol (icon)", A="bank", B="park",
                      C="pharmacy")
    assert "C. pharmacy\n\nAnswer format" in question
    assert "D." not in question and "E." not in question
    five = prompt("mfs_choice", kind="k", A="1", B="2", C="3", D="4", E="5")
    assert "D. 4\nE. 5\n" in five


@pytest.mark.parametrize("maps", [("mapnik",), ("road-names",), ("road-names", "mapnik")])
def test_unknown_or_orphan_mapnik_maps_are_refused(maps: tuple[str, ...]) -> None:
    """A map that does not exist, or the road-name map without OSM-Carto (it reads
    through OSM-Carto's datasources), stops the declaration."""
    from dataclasses import replace

    good = load_spec("mml")
    assert good.mapnik_maps == ("osm-carto", "road-names")
    with pytest.raises(ValueError, match="mapnik_maps"):
        replace(good, mapnik_maps=maps)


def test_street_and_frieda_tasks_declare_their_maps() -> None:
    """Every task a ``--workers`` build may fork for renders with OSM-Carto; those that
    judge written names with the road-name map say so."""
    names = {"mml", "srn", "stmf", "mtmf"}
    for spec in task_specs():
        if spec.suite in ("cartomapqa", "frieda"):
            assert "osm-carto" in spec.mapnik_maps, spec.name
            assert ("road-names" in spec.mapnik_maps) == (spec.name in names), spec.name
        else:
            assert spec.mapnik_maps == (), spec.name
