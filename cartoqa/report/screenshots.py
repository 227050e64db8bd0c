"""Open a written report in headless Chromium: screenshots, and what each page loaded.

Used by the end-to-end test and by ``scripts/report_screenshots.py``. The browser is
:class:`renderers.browser.Browser` (the one that draws the maps). A report is a static
folder a user opens from ``file://``; this harness hands the browser ``file://`` URLs,
which, when cartoqa runs as root, the browser loads from its private origin
(:data:`renderers.browser.LOCAL_ORIGIN`) serving only the folders given to
:func:`allow_report` (the report and its dataset). With
``Browser(record_requests=True)`` every request the page made is recorded (from the
browser's request interception, or DevTools ``Network`` events), and the probe lists
each URL the page names, so a caller can check that nothing left the machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from renderers.browser import LOCAL_ORIGIN, Browser

#: True once the page's script has run and its images have loaded (lazy ones: those in
#: view).
READY_JS = """
if (!document.body || document.body.getAttribute('data-ready') !== '1') return false;
const imgs = Array.from(document.images).filter(function (i) {
  const r = i.getBoundingClientRect();
  return i.loading !== 'lazy' || (r.top < window.innerHeight && r.bottom > 0); });
return imgs.every(function (i) { return i.complete; });
"""

#: What a page shows and fetched (returned with its screenshot).
PROBE_JS = """
const resources = performance.getEntriesByType('resource').map(function (e) { return e.name; });
const named = Array.from(document.querySelectorAll('[src],[href]')).map(function (e) {
  return e.getAttribute('src') !== null ? e.src : e.href; });
const visible = Array.from(document.images).filter(function (i) {
  const r = i.getBoundingClientRect(); return r.top < window.innerHeight && r.bottom > 0; });
return {
  url: location.href,
  resources: resources.concat([location.href]),
  named: named,
  shown: document.body.getAttribute('data-shown'),
  items: Array.from(document.querySelectorAll('.item')).map(function (e) { return e.dataset.id; }),
  images: visible.map(function (i) { return {src: i.src, w: i.naturalWidth, h: i.naturalHeight,
                                             complete: i.complete}; }),
  overlays: document.querySelectorAll('.imgwrap svg').length,
  answers: Array.from(document.querySelectorAll('.answer')).map(function (e) {
    return e.className; }),
  tables: document.querySelectorAll('table.scores').length,
  count: (document.getElementById('count') || {}).textContent || null
};
"""

#: URL prefixes a report may name or load: its own files (``file://``, or the
#: browser's private origin, which serves only allowed folders and never resolves a
#: host) and inline data.
LOCAL_SCHEMES = ("file:", "data:", "about:", "blob:", LOCAL_ORIGIN + "/")


@dataclass
class PageShot:
    """One page opened in the browser.

    Attributes
    ----------
    name : str
        ``overview`` or the task name.
    png : pathlib.Path or None
        The screenshot, when a folder was given.
    probe : dict
        What :data:`PROBE_JS` returned.
    requests : list of str
        The URLs the page requested (empty unless the browser records requests).
    """

    name: str
    png: Path | None
    probe: dict[str, Any]
    requests: list[str] = field(default_factory=list)

    def non_local_urls(self) -> list[str]:
        """URLs the page requested or names that are not local files or inline data."""
        urls = (list(self.requests) + list(self.probe.get("resources") or [])
                + list(self.probe.get("named") or []))
        return sorted({u for u in urls if not u.startswith(LOCAL_SCHEMES)})


def allow_report(browser: Browser, report: Path) -> None:
    """Let the browser load a report's files and its dataset's images.

    Parameters
    ----------
    browser : renderers.browser.Browser
        The browser that will open the report.
    report : pathlib.Path
        The report folder; the dataset folder named in its marker file is allowed too
        (``link`` and ``reference`` reports show the dataset's own images).
    """
    root = report.resolve()
    folders = [root]
    try:
        marker = json.loads((root / ".cartoqa-report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        marker = {}
    dataset = marker.get("dataset") if isinstance(marker, dict) else None
    if isinstance(dataset, str) and Path(dataset).is_dir():
        folders.append(Path(dataset))
    browser.allow(*folders)


def open_page(browser: Browser, url: str, name: str, out: Path | None = None,
              *, probe_js: str = PROBE_JS) -> PageShot:
    """Load one report page, wait until it is ready, probe it and screenshot it.

    Parameters
    ----------
    browser : renderers.browser.Browser
        A headless Chromium.
    url : str
        A ``file://`` URL (with a ``#filter`` fragment if wanted); its folder must be
        allowed (:func:`allow_report`) where the browser serves files.
    name : str
        Name of the screenshot (``<out>/<name>.png``).
    out : pathlib.Path, optional
        Folder for the screenshot; none is written without it.
    probe_js : str
        The probe to run before the screenshot (it may also act on the page).

    Returns
    -------
    PageShot
        The probe's result and the screenshot's path.
    """
    browser.requests()  # forget what earlier pages requested
    png, probe = browser.capture(url, ready_js=READY_JS, probe_js=probe_js)
    requests = browser.requests()
    path = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{name}.png"
        path.write_bytes(png)
    return PageShot(name, path, probe if isinstance(probe, dict) else {"value": probe},
                    requests)


def screenshot_report(report: Path, out: Path | None, browser: Browser,
                      *, overlay: bool = True) -> list[PageShot]:
    """Open the overview and the first item of every task page of a report.

    Parameters
    ----------
    report : pathlib.Path
        The report folder (``index.html``).
    out : pathlib.Path, optional
        Folder for ``overview.png`` and ``<task>.png``.
    browser : renderers.browser.Browser
        A headless Chromium (its viewport sets the screenshot size).
    overlay : bool
        Show the ground-truth overlay on the item pages.

    Returns
    -------
    list of PageShot
        The overview first, then one per task page.
    """
    root = report.resolve()
    allow_report(browser, root)
    shots = [open_page(browser, (root / "index.html").as_uri(), "overview", out)]
    marker = json.loads((root / ".cartoqa-report.json").read_text(encoding="utf-8"))
    pages = sorted(f for f in marker["files"] if f.startswith("task-") and f.endswith(".html"))
    for page in pages:
        task = page[len("task-"):-len(".html")]
        url = (root / page).as_uri() + ("#overlay=1" if overlay else "")
        shots.append(open_page(browser, url, task, out))
    return shots
