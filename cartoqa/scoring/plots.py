"""Figures of a score report (matplotlib's Agg canvas): bars, RLE scatter, SRN by steps."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter, ScalarFormatter

from cartoqa.scoring.sections import sections


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    """A figure on the Agg canvas (no pyplot, no global backend state)."""
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _save(fig: Figure, path: Path) -> Path:
    tmp = path.with_name(f".{path.name}.tmp.png")
    fig.savefig(tmp, dpi=120, bbox_inches="tight")
    tmp.replace(path)
    return path


def plot_task_bars(report: Mapping[str, Any], path: Path) -> Path | None:
    """Bars of each section's headline metrics, both variants side by side.

    Parameters
    ----------
    report : mapping
        A score report.
    path : pathlib.Path
        The PNG to write.

    Returns
    -------
    pathlib.Path or None
        The file, or ``None`` when no section has a headline metric.
    """
    fig = task_bars_figure(report)
    return None if fig is None else _save(fig, path)


def task_bars_figure(report: Mapping[str, Any]) -> Figure | None:
    """The figure of :func:`plot_task_bars`, not yet saved.

    Parameters
    ----------
    report : mapping
        A score report.

    Returns
    -------
    matplotlib.figure.Figure or None
        ``None`` when no section has a headline metric.
    """
    labels: list[str] = []
    every: list[float] = []
    valid: list[float] = []
    headlines = {s.key: s.headline for s in sections()}
    for key, section in (report.get("sections") or {}).items():
        for name in headlines.get(key, ()):
            m = (section.get("metrics") or {}).get(name)
            if m is None:
                continue
            labels.append(f"{key}: {name}")
            every.append(m["all"] if m["all"] is not None else 0.0)
            valid.append(m["valid_only"] if m["valid_only"] is not None else 0.0)
    if not labels:
        return None
    # Horizontal bars: one row per headline metric, its label written out in full on the
    # left, so long section names never overlap however many sections there are.
    fig, ax = _figure(7.5, max(3.0, 0.42 * len(labels) + 1.2))
    fig.set_layout_engine("constrained")  # room for the labels inside the figure
    ys = [len(labels) - 1 - i for i in range(len(labels))]  # the first section on top
    ax.barh([y + 0.2 for y in ys], every, height=0.4, label="all (invalid = wrong)")
    ax.barh([y - 0.2 for y in ys], valid, height=0.4, label="valid answers only")
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlim(0, 1.05)
    ax.set_xlabel("score")
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.set_title("cartoqa scores per task", pad=24)
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    return fig


def plot_rle_scatter(report: Mapping[str, Any], path: Path) -> Path | None:
    """Predicted against true path length (metres; log-log for a wide range).

    Parameters
    ----------
    report : mapping
        A score report with per-item rows.
    path : pathlib.Path
        The PNG to write.

    Returns
    -------
    pathlib.Path or None
        The file, or ``None`` without valid RLE answers.
    """
    rows = [r for r in report.get("items") or [] if r.get("section") == "rle" and r.get("valid")]
    points = [(r["measures"]["true_m"], r["measures"]["predicted_m"]) for r in rows
              if r["measures"]["true_m"] > 0 and r["measures"]["predicted_m"] > 0]
    if not points:
        return None
    n_invalid = (report.get("sections") or {}).get("rle", {}).get("n_invalid", 0)
    fig, ax = _figure(5.0, 5.0)
    ax.scatter([t for t, _ in points], [p for _, p in points], s=14, alpha=0.7)
    lo = min(min(t, p) for t, p in points) * 0.8
    hi = max(max(t, p) for t, p in points) * 1.25
    ax.plot([lo, hi], [lo, hi], color="grey", linewidth=1, label="predicted = true")
    if hi / lo > 20:  # a wide range of lengths reads better on log axes
        ax.set_xscale("log")
        ax.set_yscale("log")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(ScalarFormatter())
            axis.set_minor_formatter(NullFormatter())
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("true length (m)")
    ax.set_ylabel("predicted length (m)")
    ax.set_title(f"RLE: {len(points)} valid answers, {n_invalid} invalid")
    ax.legend(fontsize=8)
    return _save(fig, path)


def plot_srn_by_steps(report: Mapping[str, Any], path: Path) -> Path | None:
    """SRN exact-route rate, step accuracy and connectivity against the number of steps.

    Parameters
    ----------
    report : mapping
        A score report whose SRN section has the ``n_steps`` stratum.
    path : pathlib.Path
        The PNG to write.

    Returns
    -------
    pathlib.Path or None
        The file, or ``None`` without SRN items.
    """
    srn = (report.get("sections") or {}).get("srn")
    if not srn:
        return None
    groups = (srn.get("strata") or {}).get("n_steps")
    if not groups:
        groups = {"all": srn}
    labels = list(groups)
    fig, ax = _figure(max(5.0, 0.8 * len(labels) + 3), 4.0)
    xs = list(range(len(labels)))
    names = ["exact_route", "step_accuracy"]
    if any(((g.get("metrics") or {}).get("connectivity") or {}).get("all") is not None
           for g in groups.values()):
        names.append("connectivity")
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        ys = [((groups[k].get("metrics") or {}).get(name) or {}).get("all") or 0.0
              for k in labels]
        offset = (i - (len(names) - 1) / 2) * width
        ax.bar([x + offset for x in xs], ys, width=width, label=f"{name} (all)")
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{k}\n(n={groups[k]['n']})" for k in labels], fontsize=8)
    ax.set_xlabel("number of steps")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("score")
    ax.set_title("SRN accuracy by number of steps")
    ax.legend(fontsize=8)
    return _save(fig, path)


def write_plots(report: Mapping[str, Any], folder: str | Path) -> list[Path]:
    """Write every figure that the report has data for.

    Parameters
    ----------
    report : mapping
        A score report (with per-item rows for the RLE scatter).
    folder : str or pathlib.Path
        Output folder; created if needed.

    Returns
    -------
    list of pathlib.Path
        The PNG files written: ``tasks.png``, ``rle_scatter.png``, ``srn_steps.png``.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = [
        plot_task_bars(report, out / "tasks.png"),
        plot_rle_scatter(report, out / "rle_scatter.png"),
        plot_srn_by_steps(report, out / "srn_steps.png"),
    ]
    return [p for p in written if p is not None]
