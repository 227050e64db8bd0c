"""Screenshot a cartoqa report in headless Chromium: the overview and one item per task.

Also checks that every page loaded only local files (``file://``, or the browser's
private origin when run as root, see docs/report.md) or ``data:``, and that
the first item's images loaded, and prints what each page shows.

Usage::

    python scripts/report_screenshots.py REPORT_DIR OUT_DIR [--width 1400] [--height 1500]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cartoqa.report.screenshots import screenshot_report
from renderers.browser import Browser


def main() -> int:
    """Take the screenshots; returns the exit status (1 if a page loaded a remote URL)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1500)
    parser.add_argument("--no-overlay", action="store_true")
    args = parser.parse_args()
    status = 0
    with Browser(width=args.width, height=args.height, record_requests=True) as browser:
        start = time.perf_counter()
        shots = screenshot_report(args.report, args.out, browser, overlay=not args.no_overlay)
        elapsed = time.perf_counter() - start
    for shot in shots:
        p = shot.probe
        images = p.get("images") or []
        broken = [i["src"] for i in images if not i["w"]]
        print(f"{shot.name:9s} {shot.png}  items shown: {p.get('count') or '-'}  "
              f"images in view: {len(images)} (broken {len(broken)})  "
              f"overlays: {p.get('overlays')}  score tables: {p.get('tables')}  "
              f"requests: {len(shot.requests)}")
        remote = shot.non_local_urls()
        if remote or broken:
            print(f"  PROBLEM: remote {remote[:5]} broken {broken[:5]}", file=sys.stderr)
            status = 1
    print(f"{len(shots)} pages in {elapsed:.1f} s (browser start included)")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
