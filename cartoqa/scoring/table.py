"""A readable text table of a score report: one block per section, one row per stratum."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    value = float(value)
    if abs(value) >= 1000:
        return f"{value:.0f}"
    if abs(value) >= 100:
        return f"{value:.1f}"
    return f"{value:.3f}"


def _row(label: str, group: Mapping[str, Any], metrics: list[str]) -> list[str]:
    cells = [label, str(group.get("n", 0)), str(group.get("n_invalid", 0))]
    for name in metrics:
        m = (group.get("metrics") or {}).get(name) or {}
        cells.append(f"{_cell(m.get('all'))} | {_cell(m.get('valid_only'))}")
    return cells


def format_report(report: Mapping[str, Any], *, strata: bool = True) -> str:
    """Render a report as text tables.

    Each section gets a block whose first row is the whole section and whose further
    rows are its strata (``zoom=18``). Every metric column shows ``all | valid``: the
    value counting invalid answers as wrong, then over valid answers only. ``-`` marks
    an undefined value (e.g. r2 on constant truth).

    Parameters
    ----------
    report : mapping
        From :func:`cartoqa.scoring.score_dataset`.
    strata : bool, optional
        One row per stratum under each section's row; ``False`` gives the summary, one
        row per section (the JSON report always holds every stratum).

    Returns
    -------
    str
        The tables, ending with a newline.
    """
    lines: list[str] = []
    n_items = report.get("n_items", 0)
    lines.append(f"{n_items} items, {report.get('n_invalid', 0)} invalid answers"
                 + (f", {report['n_missing']} without a prediction" if report.get("n_missing")
                    else "")
                 + (f", {report['n_unknown_predictions']} predictions for unknown ids"
                    if report.get("n_unknown_predictions") else ""))
    for note in report.get("notes") or []:
        lines.append(f"note: {note}")
    convention = report.get("convention") or {}
    if convention.get("name") not in (None, "cartoqa"):
        lines.append(f"convention: {convention['name']}: {convention.get('meaning', '')}")
    lines.append("columns: all (invalid counted as wrong) | valid (parsed answers only)")
    for key, section in (report.get("sections") or {}).items():
        metrics = list((section.get("metrics") or {}).keys())
        header = ["stratum", "n", "invalid", *metrics]
        rows = [_row("(all)", section, metrics)]
        for stratum, groups in (section.get("strata") or {}).items() if strata else ():
            for value, group in groups.items():
                rows.append(_row(f"{stratum}={value}", group, metrics))
        widths = [max(len(header[i]), *(len(r[i]) for r in rows)) for i in range(len(header))]
        lines.append("")
        lines.append(f"== {key} ==")
        lines.append("  ".join(h.ljust(widths[i]) if i == 0 else h.rjust(widths[i])
                               for i, h in enumerate(header)))
        for r in rows:
            lines.append("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                                   for i, c in enumerate(r)))
        reasons = section.get("invalid_reasons") or {}
        if reasons:
            shown = "; ".join(f"{k} ({v})" for k, v in list(reasons.items())[:4])
            lines.append(f"  invalid: {shown}")
        for note in section.get("notes") or []:
            lines.append(f"  note: {note}")
    return "\n".join(lines) + "\n"
