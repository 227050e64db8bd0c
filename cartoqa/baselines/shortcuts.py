"""The shortcut report: per task and request, chance level, each blind baseline's score
and the answer distribution, flagged where a blind baseline beats chance.

Each request is judged on one metric, its first ``headline`` metric (else its first
metric; :mod:`cartoqa.declarations.spec`). Chance is the mean score of the random baseline over
:data:`CHANCE_SEEDS` seeds, scored by the ordinary scorer (so FRIEDA's neighbouring
directions, MapIQ's F1 over letters and every other rule count as they do for models).
A row of at least :data:`~cartoqa.dataset.balance.MIN_ITEMS` items is flagged when a
blind baseline (other than random itself) beats chance by more than :data:`MARGIN` on a
metric where higher is better, or is better than chance by more than
:data:`RELATIVE_MARGIN` of it on an error metric (RMSE), or when the answers are
unbalanced (:mod:`cartoqa.dataset.balance`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from cartoqa.baselines import BASELINES
from cartoqa.baselines.blind import random_baseline
from cartoqa.dataset.balance import MIN_ITEMS, dataset_balance
from cartoqa.declarations.registry import request_spec, task_spec
from cartoqa.metrics.registry import get_metric
from cartoqa.scoring.core import score_predictions

#: Seeds of the random baseline averaged into the chance level.
CHANCE_SEEDS = 20
#: A blind baseline beating chance by more than this (absolute, on a higher-is-better
#: metric) is flagged.
MARGIN = 0.10
#: On an error metric (lower is better): flagged when more than this share below chance.
RELATIVE_MARGIN = 0.25


def judged_metric(task: str, request: str) -> str:
    """The metric a request is judged on: its first headline metric, else its first.

    Examples
    --------
    >>> judged_metric("stmf", "count"), judged_metric("rle", "length")
    ('accuracy', 'rmse_m')
    """
    found = request_spec(task, request)
    if found is None:
        raise KeyError(f"{task}/{request} is not a declared request")
    spec = found[1]
    return (spec.headline or spec.metrics)[0]


def _sections(items: Sequence[Mapping[str, Any]],
              predictions: Mapping[str, str]) -> dict[str, Any]:
    report = score_predictions(items, predictions, include_items=False,
                               connectivity_note="not checked by the shortcut report")
    return dict(report["sections"])


def _value(sections: Mapping[str, Any], key: str, metric: str) -> float | None:
    entry = ((sections.get(key) or {}).get("metrics") or {}).get(metric) or {}
    value = entry.get("all")
    return None if value is None or (isinstance(value, float) and math.isnan(value)) \
        else float(value)


def beats_chance(score: float | None, chance: float | None, higher_is_better: bool) -> bool:
    """Whether a score beats chance by more than the stated margin.

    Examples
    --------
    >>> beats_chance(0.65, 0.5, True), beats_chance(0.55, 0.5, True)
    (True, False)
    >>> beats_chance(70.0, 100.0, False), beats_chance(80.0, 100.0, False)
    (True, False)
    """
    if score is None or chance is None:
        return False
    if higher_is_better:
        return score - chance > MARGIN
    return score < chance * (1 - RELATIVE_MARGIN)


def shortcut_table(items: Sequence[Mapping[str, Any]],
                   predictions: Mapping[str, Mapping[str, str]],
                   *, seed: int = 0, extra: Sequence[Mapping[str, Any]] = (),
                   chance_seeds: int = CHANCE_SEEDS) -> dict[str, Any]:
    """Score the baselines and lay out the shortcut report.

    Parameters
    ----------
    items : sequence of mapping
        The dataset's items.
    predictions : mapping
        Baseline name -> (item id -> response), e.g. from
        :func:`cartoqa.baselines.run.baseline_predictions`.
    seed : int
        First seed of the chance estimate (seeds ``seed`` ... ``seed + chance_seeds - 1``).
    extra : sequence of mapping
        Training items that widen the answer spaces, as the random baseline used.
    chance_seeds : int
        How many random runs the chance level averages.

    Returns
    -------
    dict
        ``{"margin", "relative_margin", "chance_seeds", "baselines", "rows": [...]}``; a row
        per section: ``section``, ``task``, ``request``, ``n``, ``metric``,
        ``higher_is_better``, ``chance``, ``scores`` (baseline -> score, ``None`` where the
        baseline gave no answer to the request), ``distribution``, ``flags``.
    """
    chance_runs = [_sections(items, random_baseline(items, seed=seed + k, extra=extra))
                   for k in range(chance_seeds)]
    scored = {name: _sections(items, answers) for name, answers in predictions.items()}
    balance = dataset_balance(items)
    rows = []
    for key, entry in sorted(chance_runs[0].items()):
        task, request = str(entry["task"]), str(entry["request"])
        metric = judged_metric(task, request)
        higher = get_metric(metric).higher_is_better
        values = [v for run in chance_runs if (v := _value(run, key, metric)) is not None]
        chance = sum(values) / len(values) if values else None
        ids = {str(i["id"]) for i in items
               if i.get("task") == task and i.get("request") == request}
        scores: dict[str, float | None] = {}
        for name, sections in scored.items():
            answered = ids & set(predictions[name])
            scores[name] = _value(sections, key, metric) if answered else None
        dist = balance.get(f"{task}/{request}", {})
        rows.append({"section": key, "task": task, "request": request,
                     "n": entry["n"], "metric": metric, "higher_is_better": higher,
                     "chance": chance, "scores": scores, "distribution": dist,
                     "flags": list(dist.get("unbalanced") or [])})
    rows.extend(pooled_rows(rows))
    for row in rows:
        if row["n"] < MIN_ITEMS:
            row["flags"] = []
            continue
        row["flags"][:0] = [
            f"{name} beats chance ({score:.3g} vs {row['chance']:.3g})"
            for name, score in row["scores"].items()
            if name != "random" and beats_chance(score, row["chance"],
                                                 row["higher_is_better"])]
    return {"margin": MARGIN, "relative_margin": RELATIVE_MARGIN, "min_items": MIN_ITEMS,
            "chance_seeds": chance_seeds, "baselines": list(predictions), "rows": rows}


def _weighted(rows: Sequence[Mapping[str, Any]], get: Any) -> float | None:
    pairs = [(row["n"], v) for row in rows if (v := get(row)) is not None]
    total = sum(n for n, _ in pairs)
    return sum(n * v for n, v in pairs) / total if total else None


def pooled_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One more row per suite and request asked by several tasks (MapIQ's binary
    questions of every task, say): chance and scores are the item-weighted means of the
    tasks' rows (exact for the mean-of-items metrics these requests are judged on), so
    that small builds still reach :data:`MIN_ITEMS` items.

    Parameters
    ----------
    rows : sequence of mapping
        Rows of :func:`shortcut_table`.

    Returns
    -------
    list of dict
        Rows with section ``"<suite> */<request>"`` and ``task`` ``"*"``.
    """
    groups: dict[tuple[str, str, str], list[Mapping[str, Any]]] = {}
    for row in rows:
        spec = task_spec(row["task"])
        suite = spec.suite if spec is not None else "?"
        groups.setdefault((suite, row["request"], row["metric"]), []).append(row)
    out = []
    for (suite, request, metric), members in sorted(groups.items()):
        if len(members) < 2:
            continue
        names = list(members[0]["scores"])
        out.append({
            "section": f"{suite} */{request}", "task": "*", "request": request,
            "n": sum(r["n"] for r in members), "metric": metric,
            "higher_is_better": members[0]["higher_is_better"],
            "chance": _weighted(members, lambda r: r["chance"]),
            "scores": {name: _weighted(members, lambda r, name=name: r["scores"].get(name))
                       for name in names},
            "distribution": {}, "flags": [],
        })
    return out


def _fmt(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.3f}" if abs(value) < 10 else f"{value:.0f}"


def _distribution(dist: Mapping[str, Any]) -> str:
    parts = []
    if "yes_share" in dist:
        parts.append(f"yes {dist['yes_share']:.0%}")
    if "letter_share" in dist:
        parts.append("letters " + " ".join(f"{k}:{v:.0%}"
                                           for k, v in dist["letter_share"].items()))
    histograms = dist.get("count_histogram") or {}
    if len(histograms) == 1:  # one count per answer (STMF, MapWise), not MTMF's 22
        name, hist = next(iter(histograms.items()))
        parts.append(("counts " if name == "count" else f"{name} ")
                     + " ".join(f"{k}×{v}" for k, v in hist.items()))
    if "top_share" in dist and not parts:
        parts.append(f"top answer {dist['top_share']:.0%}")
    return "; ".join(parts)


def format_table(table: Mapping[str, Any]) -> str:
    """The shortcut report as a Markdown table, flagged rows marked and explained.

    Parameters
    ----------
    table : mapping
        From :func:`shortcut_table`.

    Returns
    -------
    str
        Markdown: the table, then one line per flag.
    """
    names = list(table["baselines"])
    head = ["section", "n", "metric", "chance", *names, "answers", "flag"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    notes: list[str] = []
    for row in table["rows"]:
        metric = row["metric"] + ("" if row["higher_is_better"] else " ↓")
        cells = [row["section"], str(row["n"]), metric, _fmt(row["chance"]),
                 *(_fmt(row["scores"].get(n)) for n in names),
                 _distribution(row["distribution"]), "**yes**" if row["flags"] else ""]
        lines.append("| " + " | ".join(cells) + " |")
        notes.extend(f"- {row['section']}: {flag}" for flag in row["flags"])
    legend = (f"\nchance: mean of the random baseline over {table['chance_seeds']} seeds; "
              f"flagged: a blind baseline beats chance by more than {table['margin']:.2f} "
              f"(error metrics ↓: by more than {table['relative_margin']:.0%} of chance), "
              f"or the answers are unbalanced; rows of fewer than {table['min_items']} "
              "items are not judged; `suite */request`: the request pooled over the "
              "suite's tasks; —: the baseline does not answer that request\n")
    baselines = "".join(f"- {name}: {BASELINES.get(name, '')}\n" for name in names)
    return "\n".join(lines) + "\n" + legend + "\n" + baselines + (
        "\nflags:\n" + "\n".join(notes) + "\n" if notes else "\nno flags\n")
