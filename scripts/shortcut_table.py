"""The shortcut table of datasets already built: chance, every blind baseline, the answer
distribution and the flagged rows, per task and request (issue 29).

It builds nothing. For each ``--dataset NAME DATASET [TRAIN]`` it runs the blind
baselines (``cartoqa baselines``; the majority learns on ``TRAIN``, another seed's build
of the same configuration, else leave-one-out), writes their predictions files and the
dataset's ``shortcuts.md`` / ``shortcuts.json`` into ``OUT/NAME/`` (so ``cartoqa score``
and ``cartoqa report`` read them), then one document ``OUT/shortcuts.md``: every flagged
row with why and what was done (``--notes``), then per dataset its build (manifest),
the build's answer-balance warnings and the items its yes/no quota left out, and the
table.

Usage::

    python scripts/shortcut_table.py --out OUT \\
        --dataset street hel-s0 hel-s1 --dataset mapwise mw-s0 mw-s1 \\
        [--baselines random,majority] [--notes notes.json] [--reuse] [--seed 0]

``--notes`` is a JSON object: ``"NAME SECTION"`` (or ``"SECTION"``) -> what was done
about that flagged row. ``--reuse`` reads ``OUT/NAME/baseline-<name>.jsonl`` where it
exists instead of running that baseline again (OCR is slow), e.g. to rewrite the
document with new notes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cartoqa.baselines.run import (
    FILE_PREFIX,
    baseline_predictions,
    parse_names,
    write_predictions,
)
from cartoqa.baselines.shortcuts import format_table, shortcut_table
from cartoqa.baselines.table import dataset_section, document, flagged_rows
from cartoqa.dataset.reader import read_items
from cartoqa.errors import CartoqaError
from cartoqa.scoring.io import load_predictions, write_json_atomic


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, metavar="OUT",
                        help="folder for OUT/NAME/baseline-*.jsonl and OUT/shortcuts.md")
    parser.add_argument("--dataset", nargs="+", action="append", required=True,
                        metavar="NAME DATASET [TRAIN]",
                        help="a name, a built dataset and optionally another seed's build "
                             "of the same configuration (the majority's --train); repeat")
    parser.add_argument("--baselines", default=None, metavar="NAMES",
                        help="comma-separated subset of the baselines (default: all)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the random baseline and the chance estimate")
    parser.add_argument("--notes", type=Path, default=None, metavar="FILE",
                        help="JSON object: 'NAME SECTION' or 'SECTION' -> what was done")
    parser.add_argument("--reuse", action="store_true",
                        help="read existing OUT/NAME/baseline-*.jsonl instead of rerunning")
    parser.add_argument("--title", default="Shortcut table")
    return parser


def _dataset(path: Path, what: str) -> list[dict[str, Any]]:
    if not (path / "items.jsonl").is_file():
        raise CartoqaError(f"{what} {path} is not a built dataset (no items.jsonl)",
                           fix="build it with `cartoqa build` first")
    items = read_items(path)
    if not items:
        raise CartoqaError(f"{what} {path} holds no items", fix="build it first")
    return items


def _notes(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    try:
        notes = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CartoqaError(f"--notes {path}: {exc}", fix="give a JSON object file") from exc
    if not isinstance(notes, dict) or not all(isinstance(v, str) for v in notes.values()):
        raise CartoqaError(f"--notes {path} is not an object of strings",
                           fix='write {"NAME SECTION": "what was done"}')
    return notes


def main(argv: list[str] | None = None) -> int:
    """Run the baselines over each dataset and write the shortcut document."""
    args = _parser().parse_args(argv)
    try:
        names = parse_names(args.baselines)
        notes = _notes(args.notes)
        specs = []
        for entry in args.dataset:
            if len(entry) not in (2, 3):
                raise CartoqaError(f"--dataset {' '.join(entry)}: give NAME DATASET [TRAIN]",
                                   fix="e.g. --dataset street hel-s0 hel-s1")
            name, dataset = entry[0], Path(entry[1])
            train = Path(entry[2]) if len(entry) == 3 else None
            if train is not None and train.resolve() == dataset.resolve():
                raise CartoqaError(f"--dataset {name}: TRAIN is the dataset itself",
                                   fix="pass another seed's build")
            specs.append((name, dataset, train))
        if len({s[0] for s in specs}) != len(specs):
            raise CartoqaError("two --dataset entries share a name", fix="name each apart")
        loaded = [(name, dataset, train, _dataset(dataset, "dataset"),
                   _dataset(train, "train build") if train else None)
                  for name, dataset, train in specs]
    except CartoqaError as exc:
        print(f"shortcut_table: {exc}", file=sys.stderr)
        return 2
    sections, rows = [], []
    for name, dataset, train, items, train_items in loaded:
        out = args.out / name
        have = {n: out / f"{FILE_PREFIX}{n}.jsonl" for n in names}
        todo = [n for n in names if not (args.reuse and have[n].is_file())]
        predictions = baseline_predictions(dataset, items, names=todo, train=train_items,
                                           seed=args.seed) if todo else {}
        for n in todo:
            write_predictions(have[n], n, predictions[n])
        for n in names:
            if n not in predictions:
                predictions[n] = load_predictions(have[n])
        predictions = {n: predictions[n] for n in names}
        table = shortcut_table(items, predictions, seed=args.seed, extra=train_items or ())
        write_json_atomic(out / "shortcuts.json", table)
        (out / "shortcuts.md").write_text(format_table(table), encoding="utf-8")
        manifest_path = dataset / "manifest.json"
        manifest = json.loads(manifest_path.read_text(encoding="utf-8")) \
            if manifest_path.is_file() else {}
        sections.append(dataset_section(name, str(dataset), str(train) if train else None,
                                        manifest, table))
        rows.extend(flagged_rows(name, table, notes))
        print(f"{name}: {len(items)} items, {sum(1 for r in table['rows'] if r['flags'])} "
              f"flagged rows -> {out / 'shortcuts.md'}", flush=True)
    text = document(sections, rows, args.title)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "shortcuts.md").write_text(text, encoding="utf-8")
    print(f"shortcut table: {args.out / 'shortcuts.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
