"""``cartoqa build-many`` on a Dask LocalCluster of 2 workers: two small cities, each
byte-identical to ``cartoqa build`` of the same city; the spec's errors in one line."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers.processes import alive, descendants_but, kill_all
from helpers.shared_builds import SharedBuilds

import cartoqa.build_many as build_many_module
from cartoqa.build_many import CitySpec, build_many, load_spec
from cartoqa.cli import main
from cartoqa.declarations.suites import suite_tasks
from cartoqa.errors import CartoqaError
from groundtruth.assets import asset_path

SPEC = """
out = "cities"
tasks = ["mml", "rle"]
per_task = 2
seed = 3

[[city]]
name = "kotka"
extract = "kotka"

[[city]]
name = "grid"
extract = "grid.osm"
tasks = ["mml"]
"""


def _spec(folder: Path, text: str = SPEC) -> Path:
    shutil.copyfile(asset_path("osm", "grid.osm"), folder / "grid.osm")
    path = folder / "spec.toml"
    path.write_text(text, "utf-8")
    return path


def test_spec_is_read_with_defaults_and_overrides(tmp_path: Path) -> None:
    spec = load_spec(_spec(tmp_path))
    assert spec.out == tmp_path / "cities"
    kotka, grid = spec.cities
    assert (kotka.name, kotka.extract, kotka.tasks, kotka.per_task, kotka.seed) == \
        ("kotka", "kotka", ("rle", "mml"), 2, 3)  # in the tasks' canonical order
    assert grid.extract == str(tmp_path / "grid.osm") and grid.tasks == ("mml",)


FRIEDA_SPEC = """
out = "cities"
per_task = 1

[[city]]
name = "kotka"
extract = "kotka"
tasks = ["mml"]

[[city]]
name = "relations"
extract = "relations.osm"
suite = "frieda"
tasks = ["equal", "border"]
frieda_setting = "direct"

[[city]]
name = "all-relations"
extract = "relations.osm"
suite = "frieda"
"""


def test_a_spec_may_build_frieda_cities(tmp_path: Path) -> None:
    shutil.copyfile(asset_path("osm", "relations.osm"), tmp_path / "relations.osm")
    spec = load_spec(_spec(tmp_path, FRIEDA_SPEC))
    kotka, relations, every = spec.cities
    assert (kotka.suite, kotka.task_options) == ("cartomapqa", None)
    assert relations.suite == "frieda"
    assert relations.tasks == ("frieda_border", "frieda_equal")
    assert relations.task_options == {"frieda_setting": "direct"}
    assert every.tasks == tuple(suite_tasks("frieda"))
    assert every.task_options == {"frieda_setting": "both"}  # cartoqa build's default


@pytest.mark.parametrize(("text", "message"), [
    ("out = 'x'\n", "lists no"),
    ("[[city]]\nname = 'a'\n", "needs a name and an extract"),
    ("[[city]]\nname='a'\nextract='kotka'\n[[city]]\nname='a'\nextract='kotka'\n", "repeats"),
    ("tasks = ['maps']\n[[city]]\nname='a'\nextract='kotka'\n", "unknown task"),
    ("per_task = 0\n[[city]]\nname='a'\nextract='kotka'\n", "at least 1"),
    ("[[city\n", "not valid TOML"),
    ("suite = 'mapiq'\n[[city]]\nname='a'\nextract='kotka'\n", "cannot be built by build-many"),
    ("suite = 'frieda'\nfrieda_setting = 'some'\n[[city]]\nname='a'\nextract='kotka'\n",
     "frieda_setting of a must be one of"),
    ("[[city]]\nname='a'\nextract='kotka'\nsuite='frieda'\ntasks=['mml']\n", "unknown task"),
])
def test_bad_specs(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(CartoqaError, match=message):
        load_spec(_spec(tmp_path, text))


@pytest.fixture(scope="module")
def env(shared_env: dict[str, str]) -> dict[str, str]:
    """The session's shared cache."""
    return shared_env


def _single(shared_builds: SharedBuilds, city: CitySpec) -> Path:
    """``cartoqa build`` of one city of SPEC, shared by the tests that compare with it.

    A city whose extract is a copy of a bundled file (grid.osm, copied next to each
    test's spec) is built from the bundled file: the same bytes and name, so one build.
    """
    extract = city.extract
    if Path(extract).is_file():
        bundled = asset_path("osm", Path(extract).name)
        assert Path(extract).read_bytes() == bundled.read_bytes()
        extract = str(bundled)
    return shared_builds.build("--extract", extract, "--tasks", ",".join(city.tasks),
                               "--per-task", str(city.per_task), "--seed", str(city.seed))


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_kill_9_of_build_many_then_rerun_matches_single_builds(
        env: dict[str, str], tmp_path: Path, shared_builds: SharedBuilds,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two cities on a local cluster of 2 workers, killed with -9 during Kotka's first
    slots and run again: every city's files equal ``cartoqa build`` of that city.

    One cluster build serves both paths: the rerun resumes Kotka from its journal and
    builds the grid from scratch (its folder removed after the kill); a third run finds
    every city finished and writes the same combined manifest.
    """
    import signal
    import subprocess
    import sys
    import time

    spec_path = _spec(tmp_path)
    spec = load_spec(spec_path)
    journal = spec.out / "kotka" / ".cartoqa-build" / "journal.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "cartoqa", "build-many", str(spec_path),
                             "--no-progress"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_text("utf-8").count("\n") >= 1:
            break
        time.sleep(0.2)
    assert proc.poll() is None, "build-many finished before it could be killed"
    children = descendants_but(proc.pid, "postgres")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 90
    while alive(children) and time.monotonic() < deadline:
        time.sleep(0.5)
    left = alive(children)
    kill_all(left)  # never leave them behind, even when the test fails
    assert not left, [p.pid for p in left]
    assert not (spec.out / "manifest.json").exists()
    assert not (spec.out / "kotka" / "items.jsonl").exists()  # killed mid-city
    # both cities had begun (a slot each); the grid's folder goes, as if its turn had
    # not come: the rerun resumes Kotka from its journal and builds the grid from scratch
    shutil.rmtree(spec.out / "grid", ignore_errors=True)

    said: list[str] = []
    manifest = build_many(spec, workers=2, progress=False, log=said.append)
    assert not any("dashboard" in line for line in said)  # none: nothing to browse
    assert [c["name"] for c in manifest["cities"]] == ["kotka", "grid"]
    assert json.loads((spec.out / "manifest.json").read_text("utf-8")) == manifest
    assert "OpenStreetMap contributors" in manifest["attribution"]
    for city in spec.cities:
        single = _single(shared_builds, city)
        ours, theirs = _files(single), _files(spec.out / city.name)
        assert sorted(theirs) == sorted(ours), city.name
        for name, data in ours.items():
            assert theirs[name] == data, (city.name, name)
    # a rerun finds every city finished, starts no cluster and writes the same manifest
    before = (spec.out / "manifest.json").read_bytes()
    (spec.out / "manifest.json").unlink()

    def no_cluster(workers: int) -> None:
        raise AssertionError("a cluster started for finished cities")

    monkeypatch.setattr(build_many_module, "secure_local_cluster", no_cluster)
    build_many(spec, workers=2, progress=False, log=said.append)
    assert (spec.out / "manifest.json").read_bytes() == before


@pytest.mark.slow
def test_a_frieda_city_matches_its_single_build(env: dict[str, str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A FRIEDA city of a spec is ``cartoqa build --suite frieda`` of that extract, byte
    for byte (its setting travels as the task option)."""
    import cartoqa.tasks.frieda.build as frieda_build
    from cartoqa.build_many import build_city

    # the small fixture's maps (as tests/tasks/test_frieda_build.py sets them)
    monkeypatch.setattr(frieda_build, "CONTEXT_MAPS", (3, 4))
    monkeypatch.setattr(frieda_build, "CONTEXT_MIN_GAP_M", 20.0)
    shutil.copyfile(asset_path("osm", "relations.osm"), tmp_path / "relations.osm")
    spec = load_spec(_spec(tmp_path, FRIEDA_SPEC))
    city = spec.cities[1]
    assert build_city(city, spec.out)["items"] > 0
    single = tmp_path / "single"
    assert main(["build", "--suite", "frieda", "--tasks", "border,equal",
                 "--frieda-setting", "direct", "--extract", str(tmp_path / "relations.osm"),
                 "--out", str(single), "--per-task", "1", "--no-progress"]) == 0
    ours, theirs = _files(single), _files(spec.out / city.name)
    assert sorted(theirs) == sorted(ours)
    for name, data in ours.items():
        assert theirs[name] == data, name
    manifest = json.loads((single / "manifest.json").read_text("utf-8"))
    assert manifest["build"]["task_options"] == {"frieda_setting": "direct"}
