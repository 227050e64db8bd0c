"""The HTML of the report's pages. Every style and script is inlined: no request leaves
the page except for the report's own images and figures (relative ``file`` paths)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

_HERE = Path(__file__).parent


def _asset(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")


def script_json(data: Any) -> str:
    """JSON safe to embed in a ``<script type="application/json">`` element.

    Parameters
    ----------
    data : Any
        JSON-serialisable data.

    Returns
    -------
    str
        The JSON text with every ``<``, ``>`` and ``&`` written as a ``\\u`` escape, so
        that no string can close the element (``</script>``) or switch the HTML parser
        into its "double escaped" state (``<!--<script>``, which would swallow the rest
        of the page); the JSON value is the same.

    Examples
    --------
    >>> script_json({"a": "</script>"})
    '{"a":"\\\\u003c/script\\\\u003e"}'
    >>> script_json({"a": "<!--<script>"})
    '{"a":"\\\\u003c!--\\\\u003cscript\\\\u003e"}'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _head(title: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{escape(title)}</title><style>{_asset('report.css')}</style></head>\n"
    )


def _header(dataset_name: str, tasks: Sequence[Mapping[str, str]]) -> str:
    links = "".join(f"<a href=\"{quote(t['page'])}\">{escape(t['task'])}</a>" for t in tasks)
    return (f"<header><h1>cartoqa report — {escape(dataset_name)}</h1>"
            f"<nav><a href=\"index.html\">overview</a>{links}</nav></header>\n")


def task_page(data: Mapping[str, Any], *, dataset_name: str) -> str:
    """The page of one task: its items as embedded JSON, rendered by an inline script.

    Parameters
    ----------
    data : mapping
        ``{"task", "page", "tasks", "models", "per_page", "requests", "strata",
        "systems", "items"}`` (see :mod:`cartoqa.report.writer`).
    dataset_name : str
        Shown in the header.

    Returns
    -------
    str
        The HTML document.
    """
    return (
        _head(f"{data['task']} — cartoqa report")
        + "<body>" + _header(dataset_name, data["tasks"])
        + "<div class=\"filters\" id=\"filters\"></div>"
        + "<main><div id=\"items\"><noscript>This page needs JavaScript to list its "
        "items.</noscript></div></main>\n"
        + f"<script type=\"application/json\" id=\"report-data\">{script_json(data)}</script>\n"
        + f"<script>{_asset('report.js')}</script>\n</body></html>\n"
    )


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    value = float(value)
    if abs(value) >= 1000:
        return f"{value:.0f}"
    if abs(value) >= 100:
        return f"{value:.1f}"
    return f"{value:.3f}"


def _link(page: str, **params: str) -> str:
    frag = "&".join(f"{quote(k)}={quote(v)}" for k, v in params.items() if v)
    return quote(page) + (f"#{frag}" if frag else "")


def _score_table(key: str, models: Sequence[tuple[str, str, Mapping[str, Any]]],
                 page: str) -> str:
    """One section's scores, models side by side: rows are the strata."""
    sections = [(name, (score.get("sections") or {}).get(key)) for name, _, score in models]
    present = [(n, s) for n, s in sections if s]
    if not present:
        return ""
    metrics: list[str] = []
    for _, s in present:
        for m in (s.get("metrics") or {}):
            if m not in metrics:
                metrics.append(m)
    first = present[0][1]
    request = str(first.get("request", "")) if "/" in key else ""
    rows: list[tuple[str, str, str]] = [("(all)", "", "")]
    for stratum, groups in (first.get("strata") or {}).items():
        for value in groups:
            rows.append((f"{stratum}={value}", stratum, value))
    head1 = "<tr><th class=\"l\" rowspan=\"2\">stratum</th><th rowspan=\"2\">n</th>" + "".join(
        f"<th colspan=\"{len(metrics) + 1}\">{escape(n)}</th>" for n, _ in present) + "</tr>"
    head2 = "<tr>" + "".join(
        "<th>invalid</th>" + "".join(f"<th>{escape(m)}</th>" for m in metrics)
        for _ in present) + "</tr>"
    body = []
    for label, stratum, value in rows:
        cells = [f"<td class=\"l\">{escape(label)}</td>"]
        n_cell = ""
        for name, section in present:
            group: Mapping[str, Any] | None = section
            if stratum:
                group = ((section.get("strata") or {}).get(stratum) or {}).get(value)
            if group is None:
                cells.append("<td>-</td>" * (len(metrics) + 1))
                continue
            n_cell = n_cell or str(group.get("n", 0))
            strata = {f"s.{stratum}": value} if stratum and "+" not in stratum else {}
            href = _link(page, model=name, outcome="invalid", request=request, **strata)
            cells.append(f"<td><a href=\"{href}\">{group.get('n_invalid', 0)}</a></td>")
            for m in metrics:
                entry = (group.get("metrics") or {}).get(m) or {}
                cells.append(f"<td>{_cell(entry.get('all'))} | "
                             f"{_cell(entry.get('valid_only'))}</td>")
        cells.insert(1, f"<td>{n_cell}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    notes = []
    for name, section in present:
        reasons = section.get("invalid_reasons") or {}
        if reasons:
            shown = "; ".join(f"{escape(str(k))} ({v})" for k, v in list(reasons.items())[:5])
            notes.append(f"<div class=\"note\">{escape(name)} invalid: {shown}</div>")
        for note in section.get("notes") or []:
            notes.append(f"<div class=\"note\">{escape(name)}: {escape(str(note))}</div>")
    return (f"<h3><a href=\"{_link(page, request=request)}\">{escape(key)}</a></h3>"
            f"<table class=\"scores\" data-section=\"{escape(key)}\">{head1}{head2}"
            + "".join(body) + "</table>" + "".join(notes))


def overview_page(
    *,
    dataset_name: str,
    dataset_path: str,
    manifest: Mapping[str, Any],
    counts: Mapping[str, Any],
    tasks: Sequence[Mapping[str, str]],
    models: Sequence[tuple[str, str, Mapping[str, Any]]],
    figures: Mapping[str, Mapping[str, str]],
    notes: Sequence[str],
    image_mode: str,
) -> str:
    """The overview: items per task and stratum, scores and figures per model.

    Parameters
    ----------
    dataset_name, dataset_path : str
        Shown at the top.
    manifest : mapping
        The dataset's ``manifest.json`` (attribution, build), possibly empty.
    counts : mapping
        From :func:`cartoqa.report.writer.count_items`.
    tasks : sequence of mapping
        ``{"task", "page"}`` per task page.
    models : sequence of tuple
        ``(name, predictions path, score report)`` per model.
    figures : mapping
        Figure file name -> model name -> relative path.
    notes : sequence of str
        Shown under the title.
    image_mode : str
        ``copy`` or ``reference``.

    Returns
    -------
    str
        The HTML document.
    """
    parts = [_head(f"{dataset_name} — cartoqa report"), "<body>",
             _header(dataset_name, tasks), "<main>"]
    total = sum(counts["by_task"].values())
    parts.append(f"<p>Dataset <code>{escape(dataset_path)}</code>: <b>{total}</b> items in "
                 f"{len(tasks)} task(s); {len(models)} predictions file(s). Images are "
                 + {"copy": "copied into this report.",
                    "link": "hard links in this report to the dataset's files."}.get(
                     image_mode, "read from the dataset folder (keep the report beside it).")
                 + "</p>")
    attribution = manifest.get("attribution")
    if attribution:
        licence = manifest.get("data_license")
        parts.append(f"<p class=\"muted\">Map data {escape(str(attribution))}"
                     f"{' — ' + escape(str(licence)) if licence else ''}.</p>")
    for note in notes:
        parts.append(f"<p class=\"note\">note: {escape(note)}</p>")
    parts.append("<h2>Items per task</h2><table id=\"counts\"><tr><th class=\"l\">task</th>"
                 "<th>items</th><th class=\"l\">requests</th><th class=\"l\">strata</th></tr>")
    for t in tasks:
        task = t["task"]
        requests = ", ".join(f"{escape(r)} {n}" for r, n in
                             counts["by_request"].get(task, {}).items())
        strata = "<br>".join(
            f"<b>{escape(k)}</b>: " + ", ".join(
                f"<a href=\"{_link(t['page'], **{f's.{k}': v})}\">{escape(v)}</a> {n}"
                for v, n in values.items())
            for k, values in counts["by_stratum"].get(task, {}).items())
        parts.append(f"<tr><td class=\"l\"><a href=\"{quote(t['page'])}\">{escape(task)}</a></td>"
                     f"<td>{counts['by_task'][task]}</td><td class=\"l\">{requests}</td>"
                     f"<td class=\"l\">{strata}</td></tr>")
    parts.append("</table>")
    if models:
        parts.append("<h2>Scores</h2><table id=\"models\"><tr><th class=\"l\">model</th>"
                     "<th class=\"l\">predictions</th><th>items</th><th>invalid</th>"
                     "<th>without prediction</th></tr>")
        for name, path, score in models:
            parts.append(
                f"<tr><td class=\"l\">{escape(name)}</td><td class=\"l\"><code>{escape(path)}"
                f"</code></td><td>{score.get('n_items', 0)}</td><td>{score.get('n_invalid', 0)}"
                f"</td><td>{score.get('n_missing', 0)}</td></tr>")
        parts.append("</table>")
        if figures:
            parts.append("<h2>Figures</h2>")
            for fname, by_model in figures.items():
                parts.append(f"<h3>{escape(fname)}</h3><div class=\"models\">")
                for name, _, _ in models:
                    if name in by_model:
                        parts.append(f"<figure><img src=\"{quote(by_model[name])}\" "
                                     f"alt=\"{escape(fname)} of {escape(name)}\">"
                                     f"<figcaption>{escape(name)}</figcaption></figure>")
                parts.append("</div>")
        parts.append("<h2>Scores per task and stratum</h2><p class=\"note\">Each cell reads "
                     "<i>all | valid</i>: the value counting invalid answers as wrong, then over "
                     "parsed answers only (<code>cartoqa score</code>, docs/scoring.md); "
                     "<i>-</i> is undefined. The invalid counts link to those items.</p>")
        keys: list[str] = []
        for _, _, score in models:
            for key in (score.get("sections") or {}):
                if key not in keys:
                    keys.append(key)
        pages = {t["task"]: t["page"] for t in tasks}
        for key in keys:
            task = key.split("/")[0]
            parts.append(_score_table(key, models, pages.get(task, "index.html")))
    else:
        parts.append("<p>No predictions given: pass predictions files to compare models.</p>")
    parts.append("</main><script>document.body.setAttribute('data-ready', '1');</script>"
                 "</body></html>\n")
    return "".join(parts)
