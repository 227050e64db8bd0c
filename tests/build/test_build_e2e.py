"""End to end: `cartoqa build` on Helsinki with real PostGIS, Mapnik and Chromium.

The session's shared cache and builds (tests/helpers/shared_builds.py; the session's
first build starts the cache cold), a few items of every task, then validation, answers
checked against groundtruth, resume after a kill, bad input.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from helpers.shared_builds import SharedBuilds

from cartoqa.cli import main
from cartoqa.dataset.validate import validate_dataset
from cartoqa.tasks.cartomapqa.srn_rules import MIN_LEG_PX
from cartoqa.tasks.common.rules import markers_overlap, path_doubles_back, path_turns
from cartoqa.tasks.common.views import VIEW_MIN_DATA_COVER, data_cover
from groundtruth.assets import asset_path
from groundtruth.distance import meters_to_feet
from groundtruth.extracts import resolve_extract
from groundtruth.graph import load_road_graph
from groundtruth.junctions import road_names_at
from groundtruth.projection import View
from groundtruth.routing import route_length_m, shortest_route
from groundtruth.turns import (
    actions_are_clear,
    route_legs,
    route_steps,
    steps_are_unambiguous,
    steps_connect,
)

pytestmark = pytest.mark.slow

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def env(shared_env: dict[str, str]) -> dict[str, str]:
    """The session's shared cache (its first build starts it cold)."""
    return shared_env


SMALL = ("--extract", "helsinki", "--per-task", "2", "--seed", "5")


@pytest.fixture(scope="module")
def small(env: dict[str, str], shared_builds: SharedBuilds) -> Path:
    return shared_builds.build(*SMALL)


def sphere_length_m(path: list[list[float]]) -> float:
    """Haversine length of a (lat, lon) polyline on the 6,371,008.8 m mean sphere."""
    total = 0.0
    for (la1, lo1), (la2, lo2) in pairwise(path):
        p1, p2 = math.radians(la1), math.radians(la2)
        h = (math.sin((p2 - p1) / 2) ** 2
             + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lo2 - lo1) / 2) ** 2)
        total += 2 * 6371008.8 * math.asin(math.sqrt(h))
    return total


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def items_of(root: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (root / "items.jsonl").read_text("utf-8").splitlines()]


def test_every_task_builds_and_validates(small: Path) -> None:
    report = validate_dataset(small)
    assert report.ok, report.errors
    items = items_of(small)
    by_task: dict[str, int] = {}
    for it in items:
        by_task[it["task"]] = by_task.get(it["task"], 0) + 1
    assert by_task == {"stmf": 3, "mtmf": 2, "rle": 2, "mml": 2, "srn": 2}
    manifest = json.loads((small / "manifest.json").read_text("utf-8"))
    assert manifest["counts"]["by_task"] == by_task
    assert manifest["versions"]["openstreetmap_carto"]
    assert manifest["versions"]["chromium"] and manifest["versions"]["mapnik"]
    assert main(["validate", str(small)]) == 0
    assert main(["build", "--extract", "helsinki", "--out", str(small), "--per-task", "2",
                 "--seed", "5", "--no-progress"]) == 0  # already built: nothing to do


def test_answers_agree_with_groundtruth(small: Path) -> None:
    graph = load_road_graph("helsinki")
    naive = load_road_graph("helsinki", legal=False)
    bounds = resolve_extract("helsinki").bounds
    assert bounds is not None
    for it in items_of(small):
        prov, ans = it["provenance"], it["answer"]
        view = View(center=tuple(prov["center"]), zoom=prov["zoom"])
        assert data_cover(view, bounds) >= VIEW_MIN_DATA_COVER  # no blank beige
        for m in prov["markers"]:
            assert view.contains(m["lat"], m["lon"], margin_px=12)
        if it["task"] == "mml":
            node = prov["markers"][0]["node"]
            assert sorted(ans["roads"]) == road_names_at(graph, node)
            assert 17 <= prov["zoom"] <= 19
            assert prov["markers"][0]["color"] == it["strata"]["color"]
        elif it["task"] == "srn":
            nodes = prov["route_nodes"]
            assert list(shortest_route(graph, nodes[0], nodes[-1]).nodes) == nodes
            assert ans["steps"] == route_steps(graph, nodes)
            assert steps_connect(graph, ans["steps"], nodes[0], nodes[-1])
            # the reader who ignores turn restrictions and access signs gets it too
            reader = shortest_route(naive, nodes[0], nodes[-1])
            assert route_steps(naive, reader) == ans["steps"]
            assert prov["min_leg_px"] >= MIN_LEG_PX
            # SRN's acceptance rules (docs/build.md), restated: every action can be told
            # apart, and no route at most 5 % longer has other steps
            assert actions_are_clear(route_legs(graph, nodes))
            assert steps_are_unambiguous(naive, reader, within=0.05)
            assert [m["color"] for m in prov["markers"]] == ["blue", "red"]
            for lat, lon in prov["path"]:
                assert view.contains(lat, lon)
        elif it["task"] == "rle":
            length = route_length_m(graph, prov["route_nodes"])
            want = length if ans["unit"] == "m" else meters_to_feet(length)
            assert math.isclose(ans["value"], round(want, 1), abs_tol=0.051)
            assert it["strata"]["difficulty"] == prov["difficulty"]
            assert path_turns(prov["path"])[0] == prov["turns"]
            # independent of groundtruth: the drawn path's length on a sphere
            metres = ans["value"] * (0.3048 if ans["unit"] == "ft" else 1.0)
            assert math.isclose(metres, sphere_length_m(prov["path"]), rel_tol=0.005)
            assert not path_doubles_back(
                [View(center=tuple(prov["center"]), zoom=prov["zoom"]).to_view_px(lat, lon)
                 for lat, lon in prov["path"]])
        elif it["task"] == "stmf":
            assert prov["zoom"] == 19
        if it["task"] in ("rle", "srn"):
            pins = [view.to_view_px(m["lat"], m["lon"]) for m in prov["markers"]]
            assert not markers_overlap(pins)
        assert it["question"] and "Answer" in it["question"]


def test_zooms_the_extract_cannot_fill_are_recorded(small: Path) -> None:
    manifest = json.loads((small / "manifest.json").read_text("utf-8"))
    assert sorted(manifest["zooms_not_filled"]["rle"]) == ["15", "16"]
    assert {it["provenance"]["zoom"] for it in items_of(small) if it["task"] == "rle"} <= \
        {17, 18, 19}


def test_stmf_answers_are_consistent(small: Path) -> None:
    stmf = {it["request"]: it["answer"] for it in items_of(small) if it["task"] == "stmf"}
    count = stmf["count"]["count"]
    assert stmf["presence"]["present"] == (count > 0)
    assert len(stmf["names"]["names"]) + stmf["names"]["unnamed"] >= count


def test_killed_build_resumes_to_the_same_items(env: dict[str, str], tmp_path: Path,
                                                small: Path) -> None:
    # the configuration the other tests read (every task): its uninterrupted build is
    # made once for the module, so the kill costs one more build, not two
    args = ["build", *SMALL, "--no-progress"]
    full = small

    cut = tmp_path / "cut"
    journal = cut / ".cartoqa-build" / "journal.jsonl"
    # its own process group, so that the kill also takes the browser it started
    proc = subprocess.Popen([sys.executable, "-m", "cartoqa", *args, "--out", str(cut)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_text("utf-8").count("\n") >= 2:
            break
        time.sleep(0.2)
    assert proc.poll() is None, "the build finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (cut / "items.jsonl").exists()
    assert main(["validate", str(cut)]) == 2  # not a dataset yet: no half-written one
    assert main([*args, "--out", str(cut)]) == 0
    assert (cut / "items.jsonl").read_bytes() == (full / "items.jsonl").read_bytes()
    assert sorted(p.name for p in (cut / "images").iterdir()) == \
        sorted(p.name for p in (full / "images").iterdir())
    # every file, byte for byte (images and manifest too), as the parallel test asks
    ours, theirs = _files(full), _files(cut)
    assert sorted(theirs) == sorted(ours)
    for name, data in ours.items():
        assert theirs[name] == data, name


def test_bad_input_leaves_nothing(env: dict[str, str], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ds"
    assert main(["build", "--out", str(out), "--tasks", "stmf,maps"]) == 2
    assert "unknown task 'maps'" in capsys.readouterr().err
    assert not out.exists()

    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    assert main(["build", "--out", str(blocker / "ds"), "--tasks", "mml"]) == 2
    assert "cannot write to output folder" in capsys.readouterr().err

    assert main(["build", "--extract", str(DATA / "no_roads.osm"), "--out", str(out),
                 "--tasks", "mml,srn"]) == 2
    assert "has no drivable roads" in capsys.readouterr().err
    assert not out.exists()


def test_failure_before_the_first_scenario_leaves_nothing(
        env: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the error comes from the first render, after the output folder was opened
    monkeypatch.setenv("CARTOQA_WEB_ASSETS", str(tmp_path / "no-leaflet-here"))
    out = tmp_path / "ds"
    assert main(["build", "--out", str(out), "--tasks", "mml", "--per-task", "1",
                 "--no-progress"]) == 2
    assert "Leaflet file" in capsys.readouterr().err
    assert not out.exists()


def test_per_task_the_extract_cannot_fill(env: dict[str, str], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # the hand-made grid has 8 junctions of two named roads: 12 MML items cannot exist
    out = tmp_path / "grid"
    rc = main(["build", "--extract", str(asset_path("osm", "grid.osm")), "--out", str(out),
               "--tasks", "mml", "--per-task", "12", "--no-progress"])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    written = validate_dataset(out).items
    assert (f"mml: wrote {written} of 12 items ({written} of 12 scenarios): stopped after"
            in captured.err)
    assert f"short of the requested size: mml {written}/12 scenarios" in captured.out
    report = validate_dataset(out)
    assert report.ok, report.errors
    n = report.items
    assert 1 <= n <= 8
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    shortfall = manifest["shortfalls"]["mml"]
    assert (shortfall["requested"], shortfall["written"]) == (12, n)
    # what was tried, not a claim about the extract
    assert "scenario slots found no acceptable scenario" in shortfall["reason"]
