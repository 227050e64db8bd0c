"""The slot pool of ``--workers N`` (:mod:`cartoqa.parallel`): the builder makes slots
beside its forked workers, and every slot's result and rejections reach the builder in
the order it asks, whoever made them.

The tasks here are stand-ins (a scenario that records its slot and the process that
made it); real builds are compared byte for byte in ``test_build_parallel.py``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cartoqa import parallel
from cartoqa.parallel import SlotPool, TaskPlan, fork_is_safe
from cartoqa.tasks.common.base import BuildContext, Scenario
from groundtruth.extracts import Extract

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the builder forks its workers on Linux only")


def _prepare(ctx: BuildContext) -> dict[str, Any]:
    return {"prepared_in": os.getpid()}


def _make(ctx: BuildContext, state: dict[str, Any], slot: int,
          accepted: Sequence[Mapping[str, Any]] = (), planned: int = 0) -> Scenario | None:
    time.sleep(0.05)  # long enough for both processes to take slots
    if slot % 3 == 2:
        ctx.reject("fake", f"slot {slot} turned down")
        return None
    return Scenario(items=[{"slot": slot, "pid": os.getpid(),
                            "prepared_in": state["prepared_in"],
                            "knew": [it["slot"] for it in accepted], "planned": planned}],
                    images={})


def _ctx(tmp_path: Path) -> BuildContext:
    return BuildContext(Extract("x", tmp_path / "x.osm", "osm", "", None), seed=0,
                        per_task=1, cache_dir=tmp_path, assets_dir=tmp_path)


@pytest.fixture()
def fake_task(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = SimpleNamespace(prepare=_prepare, make_scenario=_make, make_slot=_make)
    monkeypatch.setattr(parallel, "load_spec", lambda name: spec)


def test_builder_and_worker_share_the_slots_in_order(tmp_path: Path, fake_task: None) -> None:
    ctx = _ctx(tmp_path)
    state = _prepare(ctx)
    n = 24
    pool = SlotPool(2, ctx, tmp_path, [TaskPlan("fake", n, n)], lambda task, slot: False,
                    states={"fake": state}, fork=True)
    try:
        assert pool.forked
        results = [pool.get("fake", slot, ok_slots=0) for slot in range(n)]
    finally:
        pool.close(wait=False)
    makers = set()
    for slot, (scenario, rejected) in enumerate(results):
        if slot % 3 == 2:  # turned down: counted for this slot only, nothing else
            assert scenario is None
            assert rejected == {("fake", f"slot {slot} turned down"): 1}
        else:
            assert scenario is not None and rejected == {}
            assert scenario.items[0]["slot"] == slot
            # the worker uses the builder's prepared state (forked), not its own
            assert scenario.items[0]["prepared_in"] == os.getpid()
            makers.add(scenario.items[0]["pid"])
    assert os.getpid() in makers and len(makers) == 2  # the builder and its one worker
    assert pool.made["builder"] > 0 and pool.made["workers"] > 0
    assert pool.made["builder"] + pool.made["workers"] == n
    assert not ctx.rejections  # the pool returns them; the builder counts what it commits


def test_each_slot_is_made_knowing_the_items_accepted_when_it_was_asked(
        tmp_path: Path, fake_task: None) -> None:
    ctx = _ctx(tmp_path)
    n = 24
    pool = SlotPool(2, ctx, tmp_path, [TaskPlan("fake", n, n)], lambda task, slot: False,
                    states={"fake": _prepare(ctx)}, fork=True)
    accepted: list[dict[str, Any]] = []
    knew: dict[int, list[int]] = {}
    try:
        for slot in range(n):
            scenario, _ = pool.get("fake", slot, ok_slots=len(accepted), accepted=accepted)
            if scenario is not None:
                knew[slot] = scenario.items[0]["knew"]
                assert scenario.items[0]["planned"] == n
                accepted = [*accepted, scenario.items[0]]
    finally:
        pool.close(wait=False)
    # the folder the builder posted them in is gone, and was private and its own
    assert pool._board.name.startswith(f"cartoqa-accepted-{os.getpid()}.")
    assert not pool._board.exists()
    before = {slot: [it["slot"] for it in accepted if it["slot"] < slot] for slot in knew}
    # each knew the items accepted before it up to some point (a worker's slot, asked
    # for ahead, knows fewer than the builder's, asked for in turn)
    assert all(knew[s] == before[s][:len(knew[s])] for s in knew), (knew, before)
    assert any(knew[s] and len(knew[s]) < len(before[s]) for s in knew), knew
    assert knew[max(knew)] != [] and knew[0] == []


def test_a_finished_task_drops_what_was_made_ahead(tmp_path: Path, fake_task: None) -> None:
    ctx = _ctx(tmp_path)
    pool = SlotPool(2, ctx, tmp_path, [TaskPlan("fake", 12, 12), TaskPlan("next", 4, 4)],
                    lambda task, slot: False, states={"fake": _prepare(ctx),
                                                      "next": _prepare(ctx)}, fork=True)
    try:
        for slot in range(4):
            pool.get("fake", slot, ok_slots=slot)
        pool.finish_task("fake")
        assert not any(key[0] == "fake" for key in (*pool._pending, *pool._own))
        scenario, _ = pool.get("next", 0, ok_slots=0)
        assert scenario is not None and scenario.items[0]["slot"] == 0
    finally:
        pool.close(wait=False)


def test_fork_is_refused_with_a_thread_or_torch(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = _ctx(tmp_path)
    for name in ("mapnik", *parallel.FORK_UNSAFE_MODULES):
        monkeypatch.delitem(sys.modules, name, raising=False)
    # pytest may run threads of its own: the builder's count is what is asked
    monkeypatch.setattr(parallel.threading, "active_count", lambda: 1)
    assert fork_is_safe(ctx)
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace())
    assert not fork_is_safe(ctx)
    monkeypatch.delitem(sys.modules, "torch")
    monkeypatch.setitem(sys.modules, "mapnik", SimpleNamespace())  # a map may be loaded
    assert not fork_is_safe(ctx)
    monkeypatch.delitem(sys.modules, "mapnik")
    monkeypatch.setattr(parallel.threading, "active_count", lambda: 2)  # another thread
    assert not fork_is_safe(ctx)
    monkeypatch.setattr(parallel.threading, "active_count", lambda: 1)
    assert fork_is_safe(ctx)
    ctx._tiles = object()  # a renderer started in the builder
    assert not fork_is_safe(ctx)
