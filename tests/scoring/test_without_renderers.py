"""Scoring needs none of the rendering stack (Mapnik, matplotlib, geopandas).

An lmms-eval environment runs cartoqa's ``process_results`` and aggregations, and
``cartoqa score`` may run where no map was ever drawn. A fresh Python process with
those packages blocked at import imports :mod:`cartoqa.scoring` and the lmms-eval task
functions, and scores a perfect and an empty answer to one item of every declared
request (every suite), through ``process_results`` and ``aggregate`` as lmms-eval calls
them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

#: Modules of the rendering stack the scoring process must not need.
BLOCKED = ("mapnik", "matplotlib", "geopandas")

_SCRIPT = r'''
import importlib.abc, json, sys

BLOCKED = tuple(sys.argv[1].split(","))


class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} is blocked in this test")
        return None


sys.meta_path.insert(0, Block())
sys.path.insert(0, sys.argv[2])  # tests/: the helpers package
from helpers.synthetic_dataset import spec_items

from cartoqa.exports import lmms_eval_support as support
from cartoqa.exports.hf import row_from_item
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.scoring import score_predictions, sections

items = spec_items()
perfect = score_predictions(items, {it["id"]: answer_as_text(it) for it in items},
                            include_items=False)
# process_results per document, then each metric's aggregation, as lmms-eval calls them
values = {}
for item in items:
    row = row_from_item(item, b"")
    for metric, value in support.process_results(row, [answer_as_text(item)]).items():
        values.setdefault(metric, []).append(value)
names = {support.metric_name(s.key, m): (s.key, m) for s in sections() for m in s.metrics}
aggregated = 0
for metric, got in values.items():
    if metric in names:
        score = support.aggregate(got, *names[metric])
        aggregated += score == score  # not NaN
print(json.dumps({
    "sections": sorted(perfect["sections"]), "n_invalid": perfect["n_invalid"],
    "tasks": sorted({it["task"] for it in items}), "n_metrics": len(values),
    "aggregated": aggregated,
    "loaded": sorted({m.split(".")[0] for m in sys.modules} & set(BLOCKED)),
}))
'''


def test_scoring_imports_and_scores_without_the_rendering_stack() -> None:
    tests = Path(__file__).resolve().parents[1]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tests.parent), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", _SCRIPT, ",".join(BLOCKED), str(tests)],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["loaded"] == []
    assert out["n_invalid"] == 0
    suites = {"mfs", "mapiq_rv", "mapwise_binary", "frieda_equal"}
    assert suites <= set(out["tasks"])
    assert len(out["sections"]) >= len(out["tasks"])
    assert out["n_metrics"] > 0 and out["aggregated"] > 0


def test_the_block_is_real() -> None:
    """The same blocker stops a direct import of the Mapnik renderer."""
    tests = Path(__file__).resolve().parents[1]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tests.parent), env.get("PYTHONPATH", "")])
    head = _SCRIPT.split("sys.path.insert")[0]
    done = subprocess.run([sys.executable, "-c", head + "import renderers.mfs.symbols\n",
                           ",".join(BLOCKED), str(tests)],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode != 0 and "mapnik is blocked" in done.stderr
