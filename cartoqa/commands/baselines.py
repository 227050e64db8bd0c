"""``cartoqa baselines``: blind baselines as predictions files, and the shortcut report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cartoqa.baselines import BASELINES
from cartoqa.errors import CartoqaError

NAME = "baselines"
HELP = (
    "Answer a dataset without looking at its images (random, majority, the prompt's "
    "example, a text-only prior, OCR): one predictions file per baseline, which `cartoqa "
    "score` and `cartoqa report` read like a model's; --report adds the shortcut table "
    "(chance, each baseline, the answer distribution, flags) per task and request."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``cartoqa baselines``' arguments.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    parser.epilog = ("Baselines: " + "; ".join(f"{k}: {v}" for k, v in BASELINES.items())
                     + ". See docs/baselines.md.")
    parser.add_argument("dataset", type=Path, metavar="DATASET",
                        help="dataset folder written by `cartoqa build`")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="folder for baseline-<name>.jsonl (and with --report "
                             "shortcuts.md and shortcuts.json)")
    parser.add_argument("--train", type=Path, default=None, metavar="DATASET",
                        help="another build of the same source (another --seed) that the "
                             "majority baseline learns from; without it each item is "
                             "answered from the dataset's other items (leave-one-out)")
    parser.add_argument("--baselines", default=None, metavar="NAMES",
                        help=f"comma-separated subset of {','.join(BASELINES)} "
                             "(default: all)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the random baseline and of the chance estimate "
                             "(default: 0)")
    parser.add_argument("--report", action="store_true",
                        help="also score the baselines and write the shortcut report "
                             "(shortcuts.md, shortcuts.json) in --out, and print it")


def run(args: argparse.Namespace) -> int:
    """Write the baselines' predictions (and the shortcut report).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 on success.
    """
    # imported here: the baselines load the scoring stack (~1 s), which
    # `cartoqa --help` and the other commands' parsers never need
    from cartoqa.baselines.run import (
        FILE_PREFIX,
        baseline_predictions,
        parse_names,
        write_predictions,
    )
    from cartoqa.dataset.reader import read_items
    from cartoqa.scoring.io import write_json_atomic

    names = parse_names(args.baselines)
    items = read_items(args.dataset)
    if not items:
        raise CartoqaError(f"{args.dataset} holds no items", fix="build the dataset first")
    if args.out.exists() and not args.out.is_dir():
        raise CartoqaError(f"--out {args.out} is a file", fix="give a folder")
    if args.out.resolve() == args.dataset.resolve():
        raise CartoqaError("--out is the dataset folder",
                           fix="give another folder, e.g. DATASET/baselines")
    train = None
    if args.train is not None:
        if args.train.resolve() == args.dataset.resolve():
            raise CartoqaError("--train is the dataset itself: the majority would be "
                               "scored on its own answers",
                               fix="pass a build of another --seed, or leave --train out")
        train = read_items(args.train)
    predictions = baseline_predictions(args.dataset, items, names=names, train=train,
                                       seed=args.seed)
    for name, responses in predictions.items():
        path = args.out / f"{FILE_PREFIX}{name}.jsonl"
        write_predictions(path, name, responses)
        print(f"{name}: {len(responses)} of {len(items)} items answered -> {path}")
    if args.report:
        # imported here: as above: the scoring stack, only when a table is asked for
        from cartoqa.baselines.shortcuts import format_table, shortcut_table

        table = shortcut_table(items, predictions, seed=args.seed, extra=train or ())
        text = format_table(table)
        write_json_atomic(args.out / "shortcuts.json", table)
        (args.out / "shortcuts.md").write_text(text, encoding="utf-8")
        sys.stdout.write("\n" + text)
        print(f"\nshortcut report: {args.out / 'shortcuts.md'}")
    return 0
