"""``cartoqa score``: parse a model's answers and report every benchmark metric."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from cartoqa.errors import CartoqaError
from cartoqa.runner.run import api_key_from_env
from cartoqa.scoring.connectivity import extract_map
from cartoqa.scoring.core import score_dataset
from cartoqa.scoring.extraction import AnswerExtractor
from cartoqa.scoring.io import write_json_atomic
from cartoqa.scoring.table import format_report

NAME = "score"
HELP = (
    "Parse each predicted answer and report every metric per task and stratum, counting "
    "invalid answers as wrong and over valid answers only; write a JSON report."
)


def default_report_path(predictions: Path) -> Path:
    """Return the default report path: ``<predictions without .jsonl>.score.json``.

    Parameters
    ----------
    predictions : pathlib.Path
        The predictions file.

    Returns
    -------
    pathlib.Path
        The report path next to it.

    Examples
    --------
    >>> default_report_path(Path("ds/predictions/model.jsonl")).as_posix()
    'ds/predictions/model.score.json'
    """
    name = predictions.name
    stem = name[: -len(".jsonl")] if name.endswith(".jsonl") else predictions.stem
    return predictions.with_name(f"{stem}.score.json")


#: Files of a dataset folder that a report must never replace.
_DATASET_FILES = ("items.jsonl", "manifest.json", "README.md")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return False


def check_output_paths(dataset: Path, predictions: Path | Sequence[Path], out: Path,
                       plot: Path | None) -> None:
    """Refuse report and figure paths that would destroy inputs or cannot be written.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    predictions : pathlib.Path or sequence of pathlib.Path
        The predictions file(s).
    out : pathlib.Path
        Where the JSON report goes.
    plot : pathlib.Path or None
        The figures folder.

    Raises
    ------
    CartoqaError
        ``out`` is a predictions file, a file of the dataset, inside its
        ``images/``, or a folder; ``plot`` is an existing file.
    """
    files = [predictions] if isinstance(predictions, Path) else list(predictions)
    if out.is_dir():
        raise CartoqaError(f"--out {out} is a folder", fix="give a file path such as "
                           f"{out / default_report_path(files[0]).name}")
    if out.exists() and not out.is_file():  # a device or FIFO: the rename would replace it
        raise CartoqaError(f"--out {out} is not a regular file",
                           fix="give a .json file path")
    for file in files:
        if _same_file(out, file) or os.path.abspath(out) == os.path.abspath(file):
            raise CartoqaError(f"--out {out} is the predictions file: the report would "
                               "replace it", fix="give another --out, or leave it out for "
                               f"{default_report_path(files[0])}")
    for name in _DATASET_FILES:
        if _same_file(out, dataset / name):
            raise CartoqaError(f"--out {out} is the dataset's {name}",
                               fix="write the report outside the dataset's own files")
    images = (dataset / "images").resolve()
    if Path(os.path.abspath(out)).resolve().is_relative_to(images):
        raise CartoqaError(f"--out {out} is inside the dataset's images folder",
                           fix="write the report elsewhere")
    for parent in Path(os.path.abspath(out)).parents:
        if parent.exists() and not parent.is_dir():
            raise CartoqaError(f"--out {out}: {parent} is a file, not a folder",
                               fix="give a report path in a folder")
    if plot is not None:
        for folder in (Path(os.path.abspath(plot)), *Path(os.path.abspath(plot)).parents):
            if folder.exists() and not folder.is_dir():
                raise CartoqaError(f"--plot {plot}: {folder} is a file, not a folder",
                                   fix="give a folder for the figures (created if missing)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``cartoqa score``'s arguments.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    parser.epilog = (
        'PREDICTIONS holds one JSON object per line: {"id": ..., "response": "raw model '
        'text"} (as `cartoqa run` writes), or is a VLMEvalKit prediction file '
        "(.xlsx/.tsv/.json with the exported `id` column and `prediction`) or an "
        "lmms-eval sample log (--log_samples); several files may be given (a "
        "harness's own result files beside them, e.g. VLMEvalKit's "
        "*_exact_matching_result.xlsx, are left out). Items without a prediction and "
        "answers that cannot be parsed count as invalid. See docs/scoring.md for the "
        "parsing rules and every metric."
    )
    parser.add_argument("dataset", type=Path, metavar="DATASET",
                        help="dataset folder written by `cartoqa build` (with items.jsonl), or "
                             "the folder of `cartoqa build-many` (every city; ids "
                             "<city>/<id>, as its export names them)")
    parser.add_argument("predictions", type=Path, nargs="+", metavar="PREDICTIONS",
                        help="the model's responses: cartoqa JSON lines, VLMEvalKit "
                        ".xlsx/.tsv/.json prediction files or lmms-eval sample logs")
    parser.add_argument("--out", type=Path, default=None, metavar="REPORT.json",
                        help="JSON report path (default: PREDICTIONS with .score.json)")
    parser.add_argument("--plot", type=Path, default=None, metavar="DIR",
                        help="also save figures (tasks.png, rle_scatter.png, srn_steps.png)")
    parser.add_argument("--extract", action="append", default=[], metavar="FILE",
                        help="an OSM extract the dataset was built from, for SRN "
                        "connectivity (bundled extracts such as helsinki need none); "
                        "repeatable")
    parser.add_argument("--no-connectivity", action="store_true",
                        help="skip the SRN road-graph connectivity check")
    parser.add_argument("--tables", action="store_true",
                        help="print every stratum (zoom, colour, template, ...) under each "
                             "section, not only the section's own row; the JSON report "
                             "holds them either way")
    parser.add_argument("--no-items", action="store_true",
                        help="leave the per-item rows out of the JSON report")
    parser.add_argument("--convention", choices=("cartoqa", "mapwise", "frieda"),
                        default="cartoqa",
                        help="scoring conventions: cartoqa's (default) for every suite, or "
                        "a paper's own for its suite's items, to report numbers comparable "
                        "to it: mapwise (a single value equal to a range bound scores 0.5; "
                        "rankings flattened to their written order) or frieda (the text "
                        "after the last 'Final answer:', ';' lists, exact alphanumeric "
                        "match, first number, a direction or its neighbours); see "
                        "docs/scoring.md")
    parser.add_argument("--extractor-endpoint", default=None, metavar="URL",
                        help="an OpenAI-compatible server whose model extracts the final "
                        "answer of responses the rules cannot read (nothing is sent "
                        "without it); the report shows the metrics with and without it")
    parser.add_argument("--extractor-model", default=None, metavar="NAME",
                        help="the extractor's model name (with --extractor-endpoint); the "
                        "key, if any, comes from $CARTOQA_API_KEY or $OPENAI_API_KEY")


def run(args: argparse.Namespace) -> int:
    """Score the predictions, print the table, write the report (and figures).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 on success.
    """
    out = args.out if args.out is not None else default_report_path(args.predictions[0])
    check_output_paths(args.dataset, args.predictions, out, args.plot)
    extractor = None
    if (args.extractor_endpoint is None) != (args.extractor_model is None):
        raise CartoqaError("--extractor-endpoint and --extractor-model go together",
                           fix="give both, or neither")
    if args.extractor_endpoint is not None:
        try:
            extractor = AnswerExtractor(args.extractor_endpoint, args.extractor_model,
                                        api_key=api_key_from_env())
        except ValueError as exc:
            raise CartoqaError(str(exc), fix="give the server's http(s) URL") from None
    report = score_dataset(
        args.dataset,
        args.predictions,
        check_connectivity=not args.no_connectivity,
        extracts=extract_map(args.extract),
        include_items=True,
        extractor=extractor,
        convention=args.convention,
    )
    figures = []
    if args.plot is not None:
        # imported here, not at start-up: loads matplotlib (~4 s)
        from cartoqa.scoring.plots import write_plots

        figures = write_plots(report, args.plot)
    if args.no_items:
        report.pop("items", None)
    write_json_atomic(out, report)
    sys.stdout.write(format_report(report, strata=args.tables))
    extracted = report.get("with_extractor")
    if extracted is not None:
        print(f"\n#### with the answer extractor ({extracted['model']}): "
              f"{extracted['n_sent']} responses sent, {extracted['n_answered']} answered")
        sys.stdout.write(format_report(extracted, strata=args.tables))
    print(f"\nreport: {out}")
    for path in figures:
        print(f"figure: {path}")
    return 0
