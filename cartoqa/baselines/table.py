"""The shortcut table of several built datasets, in one Markdown document.

``scripts/shortcut_table.py`` runs the blind baselines over datasets that are already
built (it builds nothing) and lays their shortcut reports
(:func:`cartoqa.baselines.shortcuts.shortcut_table`) side by side: per dataset, how it
was built (the manifest's ``build``), what the build's answer balance warned about and
left out (``answer_balance``), the table of chance and baseline scores per task and
request, then one list of every flagged row with what was done about it (notes given
per dataset and section).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cartoqa.baselines.shortcuts import format_table

#: What a flagged row without a note says was done about it.
NO_NOTE = "not addressed"


def flagged_rows(name: str, table: Mapping[str, Any],
                 notes: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The flagged rows of one dataset's shortcut table, with their notes.

    Parameters
    ----------
    name : str
        The dataset's name in the document (``street``, ``mapwise``, ...).
    table : mapping
        From :func:`cartoqa.baselines.shortcuts.shortcut_table`.
    notes : mapping, optional
        What was done, keyed ``"<name> <section>"`` (one row) or ``"<section>"`` (that
        section in every dataset).

    Returns
    -------
    list of dict
        ``dataset``, ``section``, ``n``, ``flags`` (the reasons) and ``done``.

    Examples
    --------
    >>> table = {"rows": [{"section": "stmf/count", "n": 8, "flags": ["majority beats"]},
    ...                   {"section": "stmf/presence", "n": 8, "flags": []}]}
    >>> rows = flagged_rows("street", table, {"street stmf/count": "by design"})
    >>> [(r["section"], r["flags"], r["done"]) for r in rows]
    [('stmf/count', ['majority beats'], 'by design')]
    """
    notes = notes or {}
    return [{"dataset": name, "section": row["section"], "n": row["n"],
             "flags": list(row["flags"]),
             "done": notes.get(f"{name} {row['section']}",
                               notes.get(row["section"], NO_NOTE))}
            for row in table["rows"] if row.get("flags")]


def build_lines(manifest: Mapping[str, Any]) -> list[str]:
    """What the manifest says of the build: its parameters, the answer-balance warnings
    and the items the yes/no quota left out (Markdown lines).

    Examples
    --------
    >>> for line in build_lines({
    ...         "build": {"suite": "mapwise", "seed": 0, "maps_per_country": 4},
    ...         "counts": {"total": 96},
    ...         "answer_balance": {"warnings": ["mapwise_count/count: one answer"],
    ...                            "dropped": {"mapwise_binary/binary": 2}}}):
    ...     print(line)
    - build: maps_per_country=4, seed=0, suite=mapwise; 96 items
    - build warning: mapwise_count/count: one answer
    - left out by the yes/no quota: mapwise_binary/binary 2
    """
    build = manifest.get("build") or {}
    params = ", ".join(f"{k}={v}" for k, v in sorted(build.items())
                       if not isinstance(v, (dict, list)) and k not in ("data_sha256",
                                                                        "format_version"))
    total = (manifest.get("counts") or {}).get("total")
    lines = [f"- build: {params or 'parameters not recorded'}"
             + (f"; {total} items" if total is not None else "")]
    balance = manifest.get("answer_balance") or {}
    lines += [f"- build warning: {w}" for w in balance.get("warnings") or []]
    dropped = balance.get("dropped") or {}
    if dropped:
        lines.append("- left out by the yes/no quota: "
                     + ", ".join(f"{k} {v}" for k, v in sorted(dropped.items())))
    elif balance:
        lines.append("- left out by the yes/no quota: none")
    return lines


def dataset_section(name: str, dataset: str, train: str | None,
                    manifest: Mapping[str, Any], table: Mapping[str, Any]) -> str:
    """One dataset's part of the document: heading, build, table and flags.

    Parameters
    ----------
    name : str
        Its name in the document.
    dataset, train : str
        The dataset's folder and the ``--train`` build's (``None``: leave-one-out).
    manifest : mapping
        The dataset's ``manifest.json``.
    table : mapping
        Its shortcut table.

    Returns
    -------
    str
        Markdown.
    """
    head = [f"## {name}", "", f"- dataset: `{dataset}`",
            f"- majority learned on: `{train}`" if train else
            "- majority: leave-one-out (no --train build)", *build_lines(manifest), ""]
    return "\n".join(head) + "\n" + format_table(table)


def flagged_section(rows: Sequence[Mapping[str, Any]]) -> str:
    """Every flagged row of the document, with why and what was done (Markdown).

    Examples
    --------
    >>> print(flagged_section([{"dataset": "street", "section": "stmf/count", "n": 8,
    ...                         "flags": ["a", "b"], "done": "left"}]))
    ## Flagged rows
    <BLANKLINE>
    | dataset | section | n | why | done |
    |---|---|---|---|---|
    | street | stmf/count | 8 | a; b | left |
    <BLANKLINE>
    """
    lines = ["## Flagged rows", ""]
    if not rows:
        return "\n".join([*lines, "No row is flagged.", ""])
    lines += ["| dataset | section | n | why | done |", "|---|---|---|---|---|"]
    lines += [f"| {r['dataset']} | {r['section']} | {r['n']} | "
              f"{'; '.join(r['flags']).replace('|', '/')} | {r['done']} |" for r in rows]
    return "\n".join(lines) + "\n"


def document(sections: Sequence[str], rows: Sequence[Mapping[str, Any]],
             title: str = "Shortcut table") -> str:
    """The whole document: title, the flagged rows, then each dataset's section."""
    return "\n".join([f"# {title}", "", flagged_section(rows), *sections])
