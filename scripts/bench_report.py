"""Benchmark ``cartoqa report`` on synthetic datasets of two sizes, side by side.

For each size it writes a report with two predictions files (the reference answers and
a flawed model), then opens the largest task page in headless Chromium and measures
how long the page takes to be ready, a filter change, and a page turn; it prints the
size on disk and the ratios between the sizes. Items are synthetic
(``tests/helpers/synthetic_dataset.py``, 8 per copy) with 320x180 images.

Usage::

    python scripts/bench_report.py [--sizes 500,5000] [--work /tmp/bench-report]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from helpers.synthetic_dataset import write_synthetic_dataset

from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.report import write_report
from cartoqa.report.screenshots import READY_JS, allow_report
from renderers.browser import Browser

PROBE = """
const nav = performance.getEntriesByType('navigation')[0];
const ready = nav.domContentLoadedEventEnd;
function pick(id, value) {
  const s = document.getElementById(id); s.value = value; s.dispatchEvent(new Event('change'));
  return document.body.offsetHeight;
}
let t = performance.now(); document.getElementById('next').click(); document.body.offsetHeight;
const turn = performance.now() - t;
t = performance.now(); pick('f-outcome', 'invalid'); const filter = performance.now() - t;
const shown = document.body.getAttribute('data-shown');
t = performance.now(); pick('f-outcome', ''); const clear = performance.now() - t;
const q = document.getElementById('f-q'); t = performance.now(); q.value = '-0042';
q.dispatchEvent(new Event('input')); document.body.offsetHeight;
const search = performance.now() - t;
return {ready: ready, filter: filter, turn: turn, clear: clear, search: search,
        shown: shown, total: JSON.parse(document.getElementById('report-data').textContent)
        .items.length};
"""


def _predictions(items: list[dict[str, Any]], path: Path, *, flawed: bool) -> Path:
    lines = []
    for n, it in enumerate(items):
        text = answer_as_text(it)
        if flawed and n % 3 == 1:
            text = "I'm sorry, I cannot tell."
        elif flawed and n % 3 == 2 and it["task"] == "stmf" and it["request"] == "count":
            text = "Answer: 99"
        lines.append(json.dumps({"id": it["id"], "response": text}, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def run(size: int, work: Path, browser: Browser) -> dict[str, float]:
    """Write and open one report; returns its measures."""
    base = work / f"n{size}"
    shutil.rmtree(base, ignore_errors=True)
    ds = write_synthetic_dataset(base / "ds", copies=max(1, size // 8), image_size=(320, 180))
    items = [json.loads(line) for line in (ds / "items.jsonl").read_text("utf-8").splitlines()]
    preds = [_predictions(items, base / "reference.jsonl", flawed=False),
             _predictions(items, base / "flawed.jsonl", flawed=True)]
    start = time.perf_counter()
    summary = write_report(ds, preds, out=base / "report", check_connectivity=False)
    write_s = time.perf_counter() - start
    page = base / "report" / "task-stmf.html"
    allow_report(browser, base / "report")
    browser.capture(page.resolve().as_uri(), ready_js=READY_JS)  # warm the browser's caches
    start = time.perf_counter()
    _, probe = browser.capture(page.resolve().as_uri() + "#", ready_js=READY_JS,
                               probe_js=PROBE)
    open_s = time.perf_counter() - start
    return {"items": len(items), "write_s": write_s, "pages_mb": summary.page_bytes / 1e6,
            "stmf_page_mb": page.stat().st_size / 1e6, "total_mb": _size(base / "report") / 1e6,
            "page_items": probe["total"], "filtered": float(probe["shown"]), "open_s": open_s,
            "ready_ms": probe["ready"],
            "filter_ms": probe["filter"], "page_turn_ms": probe["turn"],
            "clear_ms": probe["clear"], "search_ms": probe["search"]}


def main() -> int:
    """Run the benchmark and print the table; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,5000")
    parser.add_argument("--work", type=Path, default=Path("/tmp/bench-report"))
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with Browser(width=1400, height=1000) as browser:
        browser.start()
        results = [run(size, args.work, browser) for size in sizes]
    keys = list(results[0])
    print(f"{'measure':14s}" + "".join(f"{r['items']:>12d}" for r in results)
          + (f"{'ratio':>10s}" if len(results) > 1 else ""))
    for key in keys[1:]:
        values = [r[key] for r in results]
        ratio = (f"{values[-1] / values[0]:>10.1f}" if len(values) > 1 and values[0] else "")
        print(f"{key:14s}" + "".join(f"{v:>12.2f}" for v in values) + ratio)
    print("write_s: cartoqa report with 2 predictions files; open_s: load + ready + probe + "
          "screenshot of the STMF page (3/8 of the items, the second load); ready_ms: "
          "navigation to DOMContentLoaded (JSON parsed, first 50 items rendered); *_ms: in "
          "the page, synchronous re-render and layout after a page turn, a filter change "
          "(the flawed model's invalid answers: 'filtered' items), clearing it, a search by id")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
