"""Mutation score of the pure core, one package at a time, with mutmut.

Not part of CI: run it by hand when you want to know whether the tests fail when the
code is wrong (see docs/mutation.md)::

    python scripts/mutation.py                        # every package, one after another
    python scripts/mutation.py --package parsing      # one package
    python scripts/mutation.py --package groundtruth --module groundtruth.routing
    python scripts/mutation.py --package parsing --survivors      # list survivors
    python scripts/mutation.py --package parsing --show NAME      # the diff of one mutant
    python scripts/mutation.py --table                # the table of the last runs only

Each package runs in its own folder ``build/mutation/<package>/``: mutmut copies the
source and tests there (``mutants/``), mutates only that package's modules, runs the
package's fast tests once to learn which test calls which function, then runs for each
mutant only the tests that call the mutated function. Results stay in that folder, so
a second run only tests mutants whose function changed; ``--fresh`` starts again.

The score is killed (a test failed, or the mutant ran past its time limit) over all
mutants tested; a mutant that no selected test reaches counts as a survivor. Mutants
listed in ``scripts/mutation_equivalent.txt`` (judged equivalent: no input can tell them
from the original) are left out of the adjusted score.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "mutation"
EQUIVALENT = ROOT / "scripts" / "mutation_equivalent.txt"
#: What the mutated copy needs besides the packages: the tests and the hand-made data.
LINKED = ("cartoqa", "groundtruth", "renderers", "tests", "assets")

#: Module (glob) -> the fast test files (or ``file::test`` node ids) that exercise it.
#: mutmut then narrows each mutant to the tests that actually call its function.
MODULE_TESTS: dict[str, dict[str, tuple[str, ...]]] = {
    "parsing": {
        "cartoqa/parsing/*.py": (
            # every parser test file, those added since included (grade24's tables,
            # bullets, JSON keys, glosses, negative values, rank lines, second looks,
            # truncated answers were not mapped: issue 33)
            "tests/parsing",
            "tests/scoring/test_extractor.py",
            "tests/scoring/test_name_rule.py",
            "tests/scoring/test_frieda_scoring.py",
            "tests/scoring/test_mapiq_scoring.py",
            "tests/scoring/test_mapwise_scoring.py",
            # not tests/declarations/test_task_registry.py: its 40 sample items each
            # validate, parse and score (0.4 CPU s apiece) and it calls every parser, so
            # every surviving parser mutant ran all of it (about a minute on the shared
            # machine); the parsers' own tests above decide (issue 33)
        ),
    },
    "metrics": {
        "cartoqa/metrics/*.py": (
            "tests/metrics/test_metrics.py",
            "tests/metrics/test_metric_rules.py",
            "tests/metrics/test_metrics_doctests.py",
            "tests/metrics/test_metric_gaps_3307.py",
            "tests/metrics/test_metric_gaps_3308.py",
            "tests/parsing/test_properties.py",
            "tests/parsing/test_corpus.py",
            "tests/scoring/test_name_rule.py",
            "tests/scoring/test_frieda_scoring.py",
            "tests/scoring/test_connectivity.py",
            "tests/scoring/test_mapiq_scoring.py",
            "tests/scoring/test_mapwise_scoring.py",
            "tests/declarations/test_task_registry.py",
        ),
    },
    "tasks": {
        # The acceptance rules every build applies (marker and path placement, names
        # drawn, reader's route, dual carriageways, RLE difficulty), and the SRN
        # acceptance rules that live in groundtruth.turns are covered with groundtruth.
        "cartoqa/tasks/common/rules.py": (
            "tests/tasks/test_build_rules.py",
            "tests/tasks/test_build_coverage.py",
            "tests/build/test_near_duplicates.py",
            "tests/tasks/test_acceptance_rules.py",
            "tests/tasks/test_rules_doctests.py",
            "tests/tasks/test_rule_gaps_3304.py",
            "tests/tasks/test_rule_gaps_3307.py",
        ),
        # each CartoMapQA task's own acceptance checks (SRN legs and steps, dual
        # carriageways, the reader's route; RLE difficulty; MML's other roads)
        "cartoqa/tasks/cartomapqa/*_rules.py": (
            "tests/tasks/test_build_rules.py",
            "tests/tasks/test_srn_reader.py",
            "tests/build/test_near_duplicates.py",
            "tests/tasks/test_acceptance_rules.py",
            "tests/tasks/test_rules_doctests.py",
            "tests/tasks/test_rule_gaps_3304.py",
            "tests/tasks/test_rule_gaps_3307.py",
        ),
    },
    "visibility": {
        # the oracles of what a reader can see: a name written, an icon drawn, a label
        # under it, text along a road, the screen's reserved zones
        "cartoqa/visibility/*.py": (
            "tests/visibility/test_build_visibility.py",
            "tests/visibility/test_build_written_names.py",
            "tests/visibility/test_oracles.py",
            "tests/visibility/test_icon_pixels.py",
            "tests/visibility/test_view_analysis.py",
            "tests/visibility/test_symbol_sightings.py",
            "tests/visibility/test_oneway.py",
            "tests/visibility/test_visibility_doctests.py",
            "tests/tasks/test_srn_reader.py",  # the one-way arrow oracle (oneway.py)
            "tests/tasks/test_build_counts.py",
            "tests/tasks/test_build_feature_maps.py",
        ),
    },
    "dataset": {
        "cartoqa/dataset/*.py": (
            "tests/dataset/test_build_dataset.py",
            "tests/dataset/test_dataset_reader.py",
            "tests/dataset/test_build_safety.py",
            "tests/dataset/test_balance.py",  # balance.py (issue 29) had no mapped test
            "tests/dataset/test_dataset_gaps_3307.py",
            "tests/dataset/test_dataset_gaps_3308.py",
            "tests/declarations/test_task_registry.py",
            "tests/exports/test_export_formats.py",
            "tests/exports/test_export_many.py",  # many.py: one export of a build-many folder
        ),
    },
    "groundtruth": {
        "groundtruth/routing.py": (
            "tests/groundtruth/test_groundtruth_routing.py",
            "tests/groundtruth/test_groundtruth_legal.py",
            "tests/groundtruth/test_groundtruth_turns.py",
            "tests/groundtruth/test_groundtruth_osmnx.py",
        ),
        "groundtruth/access.py": ("tests/groundtruth/test_groundtruth_legal.py",
                                  "tests/groundtruth/test_groundtruth_graph.py"),
        "groundtruth/restrictions.py": ("tests/groundtruth/test_groundtruth_legal.py",),
        "groundtruth/distance.py": ("tests/groundtruth/test_groundtruth_distance.py",),
        "groundtruth/graph.py": ("tests/groundtruth/test_groundtruth_graph.py",
                                 "tests/groundtruth/test_groundtruth_legal.py"),
        "groundtruth/turns.py": ("tests/groundtruth/test_groundtruth_turns.py",),
        "groundtruth/bearings.py": ("tests/groundtruth/test_groundtruth_bearings.py",),
        "groundtruth/junctions.py": ("tests/groundtruth/test_groundtruth_junctions.py",),
        "groundtruth/relations.py": ("tests/groundtruth/test_groundtruth_relations.py",),
        "groundtruth/relation_pairs.py": ("tests/groundtruth/test_groundtruth_relations.py",),
        "groundtruth/named_features.py": ("tests/groundtruth/test_groundtruth_named_features.py",),
        "groundtruth/features.py": ("tests/groundtruth/test_groundtruth_features.py",),
        "groundtruth/catalogue.py": ("tests/groundtruth/test_groundtruth_catalogue.py",),
        "groundtruth/projection.py": ("tests/groundtruth/test_groundtruth_projection.py",),
        "groundtruth/legend_areas.py": ("tests/groundtruth/test_legend_areas.py",),
        "groundtruth/extracts.py": ("tests/groundtruth/test_groundtruth_extracts.py",
                                    "tests/groundtruth/test_extract_without_header_box.py"),
        "groundtruth/osmnx_graph.py": ("tests/groundtruth/test_groundtruth_osmnx.py",),
        "groundtruth/_osm_reader.py": ("tests/groundtruth/test_groundtruth_features.py",
                                       "tests/groundtruth/test_groundtruth_graph.py",
                                       "tests/groundtruth/test_groundtruth_named_features.py"),
        "groundtruth/assets.py": ("tests/groundtruth/test_groundtruth_assets.py",),
        "groundtruth/pedestrian_areas.py": ("tests/tasks/test_srn_reader.py",),
        # every thematic module's own tests (issue 33: coast, parts, region_names,
        # us_catalogue, counterfactual_names, mapiq_variables had their tests written
        # after this mapping and counted as "no tests"). Not tests/tasks/
        # test_mapwise_forms.py: it reaches parts.country_parts only through whole
        # MapWise builds (30-50 s each): its one test of the parts' tables only.
        "groundtruth/thematic/*.py": ("tests/groundtruth/test_thematic_groundtruth.py",
                                      "tests/groundtruth/test_thematic_us_data.py",
                                      "tests/groundtruth/test_mapwise_countries.py",
                                      "tests/groundtruth/test_india_2014.py",
                                      "tests/groundtruth/test_coast.py",
                                      "tests/groundtruth/test_region_names.py",
                                      "tests/groundtruth/test_counterfactual_names.py",
                                      "tests/groundtruth/test_mapiq_catalogue.py",
                                      "tests/tasks/test_mapwise_forms.py::"
                                      "test_parts_come_from_the_tables_and_cover_each_country"),
    },
}
#: Examples per property test in a mutation run (the suite itself uses 150).
PROPERTY_EXAMPLES = 20
ORDER = ("parsing", "metrics", "tasks", "visibility", "dataset", "groundtruth")


@dataclass
class Counts:
    """Verdicts of one package's mutants."""

    statuses: dict[str, str] = field(default_factory=dict)

    def count(self, *names: str) -> int:
        return sum(1 for s in self.statuses.values() if s in names)

    @property
    def killed(self) -> int:
        return self.count("killed", "caught by type check")

    @property
    def timeout(self) -> int:
        return self.count("timeout")

    @property
    def survived(self) -> int:
        return self.count("survived", "no tests", "suspicious", "segfault")

    @property
    def tested(self) -> int:
        return self.killed + self.timeout + self.survived


def _tests_for(package: str, module: str | None) -> list[str]:
    tests: list[str] = []
    for pattern, files in MODULE_TESTS[package].items():
        path = module.replace(".", "/") + ".py" if module else None
        if path is None or fnmatch.fnmatch(path, pattern):
            for t in files:
                if not (ROOT / t.split("::")[0]).exists():
                    print(f"mutation: {t} (mapped to {pattern}) does not exist; skipped",
                          file=sys.stderr)
                elif t not in tests:
                    tests.append(t)
    if not tests:
        sys.exit(f"mutation: no tests mapped for {module!r} in package {package!r}")
    return tests


def _only_mutate(package: str, module: str | None) -> list[str]:
    if module:
        return [module.replace(".", "/") + ".py"]
    return list(MODULE_TESTS[package])


def _toml_list(values: list[str]) -> str:
    return "[" + ", ".join(json.dumps(v) for v in values) + "]"


def prepare(package: str, module: str | None, *, fresh: bool) -> Path:
    """Make ``build/mutation/<package>`` with links to the sources and a mutmut config."""
    work = WORK / package
    if fresh and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link = work / name
        if not link.exists():
            link.symlink_to(ROOT / name)
    if fresh is False and (work / "mutants").exists():
        # mutmut keeps copied sources it finds; refresh the tests and the unmutated
        # modules from the checkout (mutated modules are regenerated by mtime).
        for name in ("tests", "assets"):
            shutil.rmtree(work / "mutants" / name, ignore_errors=True)
    only = _only_mutate(package, module)
    config = (
        "\n[tool.mutmut]\n"
        f"source_paths = {_toml_list(['cartoqa', 'groundtruth', 'renderers'])}\n"
        f"only_mutate = {_toml_list(only)}\n"
        f"also_copy = {_toml_list(['assets'])}\n"
        f"pytest_add_cli_args = {_toml_list(['-m', 'not slow', '-p', 'no:cacheprovider'])}\n"
        f"pytest_add_cli_args_test_selection = {_toml_list(_tests_for(package, module))}\n"
        "use_git_change_detection = false\n"
    )
    base = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (work / "pyproject.toml").write_text(base + config, encoding="utf-8")
    return work


def _status_names() -> dict[int | None, str]:
    from mutmut.stats import status_by_exit_code

    return status_by_exit_code


def read_counts(package: str, module: str | None = None) -> Counts:
    """The verdict of each mutant of ``package`` recorded in its work folder."""
    names = _status_names()
    counts = Counts()
    mutants = WORK / package / "mutants"
    # module globs ("cartoqa.tasks.cartomapqa.*_rules"): a prefix with the "*" dropped
    # ("cartoqa.tasks.cartomapqa._rules") matched no SRN, RLE or MML rule (issue 33)
    globs = [p.replace("/", ".").removesuffix(".py") for p in _only_mutate(package, module)]
    for meta in sorted(mutants.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        for key, code in data.get("exit_code_by_key", {}).items():
            if any(fnmatch.fnmatchcase(key.rsplit(".", 1)[0], g) for g in globs):
                counts.statuses[key] = names[code]
    return counts


def equivalent_names() -> set[str]:
    """Mutant names judged equivalent (first word of each non-comment line)."""
    if not EQUIVALENT.exists():
        return set()
    out = set()
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.add(line.split()[0])
    return out


_GENERATE = (
    "import os, mutmut.__main__ as m; os.makedirs('mutants', exist_ok=True); "
    "m.copy_src_dir(); m.copy_also_copy_files(); m.setup_source_paths(); "
    "m.create_mutants({children})"
)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # Property tests (Hypothesis) run once per mutant: fewer, fixed examples.
    env["CARTOQA_MUTATION_EXAMPLES"] = str(PROPERTY_EXAMPLES)
    # ... and memoised results are forgotten before each test (tests/conftest.py).
    env["CARTOQA_MUTATION"] = "1"
    return env


def sample_names(package: str, module: str | None, size: int, seed: int, *,
                 children: int) -> list[str]:
    """A fixed random sample of the package's mutants (generating them first).

    The sample is kept in ``build/mutation/<package>/sample.json`` so that a later run
    (after adding tests) scores the same mutants.
    """
    work = WORK / package
    keep = work / "sample.json"
    if keep.exists():
        saved = json.loads(keep.read_text())
        if saved["size"] == size and saved["seed"] == seed and saved["module"] == module:
            return list(saved["names"])
    subprocess.run([sys.executable, "-c", _GENERATE.format(children=children)], cwd=work,
                   env=_env(), check=True, stdout=subprocess.DEVNULL)
    names = sorted(read_counts(package, module).statuses)
    chosen = sorted(random.Random(seed).sample(names, min(size, len(names))))
    keep.write_text(json.dumps({"size": size, "seed": seed, "module": module,
                                "of": len(names), "names": chosen}, indent=1))
    return chosen


def run_package(package: str, module: str | None, *, children: int, fresh: bool,
                names: list[str] | None = None, sample: int = 0, seed: int = 0,
                rerun: bool = False, retest: bool = False) -> float:
    """Run mutmut for one package; return the wall time in seconds."""
    work = prepare(package, module, fresh=fresh)
    if sample:
        chosen = sample_names(package, module, sample, seed, children=children)
        if retest:  # the whole sample again, as the code stands now
            # mutmut maps tests to the functions they call once and then only adds new
            # tests: a test edited since would keep its old map, so map them all again.
            (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
            subprocess.run([sys.executable, "-c", _GENERATE.format(children=children)],
                           cwd=work, env=_env(), check=True, stdout=subprocess.DEVNULL)
        statuses = read_counts(package, module).statuses
        todo = ("survived", "no tests", "suspicious", "segfault") if rerun else ()
        # (mutants of functions deleted since the sample was drawn are gone)
        names = [n for n in chosen if n in statuses
                 and (retest or statuses[n] in (*todo, "not checked", None))]
    elif rerun:
        names = [k for k, s in read_counts(package, module).statuses.items()
                 if s in ("survived", "no tests", "suspicious", "segfault")]
    env = _env()
    mutmut = shutil.which("mutmut") or str(Path(sys.executable).with_name("mutmut"))
    cmd = ["nice", "-n", "10", mutmut, "run", "--max-children", str(children)]
    if names is not None:
        if not names:
            print(f"== {package}: no mutant left to test")
            return 0.0
        cmd += names
    elif module:
        cmd.append(module + ".*")
    print(f"== {package}{' / ' + module if module else ''}: {' '.join(cmd)}  (in {work})",
          flush=True)
    print("   load before:", os.getloadavg(), flush=True)
    start = time.monotonic()
    subprocess.run(cmd, cwd=work, env=env, check=False)
    wall = time.monotonic() - start
    print("   load after:", os.getloadavg(), flush=True)
    timing = WORK / "wall_times.json"
    times = json.loads(timing.read_text()) if timing.exists() else {}
    if names is None or (sample and not rerun):
        times[package if not module else f"{package}:{module}"] = round(wall, 1)
    timing.write_text(json.dumps(times, indent=1))
    return wall


def table(packages: list[str]) -> None:
    """Print mutants, killed, survived, timeout, score and wall time per package."""
    timing = WORK / "wall_times.json"
    times = json.loads(timing.read_text()) if timing.exists() else {}
    equivalent = equivalent_names()
    head = (f"{'package':<12}{'mutants':>8}{'killed':>8}{'survived':>9}{'timeout':>8}"
            f"{'score':>8}{'equiv':>7}{'adjusted':>9}{'wall':>9}")
    print(head)
    print("-" * len(head))
    for package in packages:
        if not (WORK / package / "mutants").exists():
            print(f"{package:<12}{'(not run)':>8}")
            continue
        c = read_counts(package)
        keep = WORK / package / "sample.json"
        if keep.exists():
            chosen = set(json.loads(keep.read_text())["names"])
            c.statuses = {k: v for k, v in c.statuses.items() if k in chosen}
        eq = sum(1 for k, s in c.statuses.items() if k in equivalent and s != "killed")
        caught = c.killed + c.timeout
        score = 100.0 * caught / c.tested if c.tested else 0.0
        adj = 100.0 * caught / (c.tested - eq) if c.tested - eq else 0.0
        wall = times.get(package)
        wall_s = f"{wall / 60:.1f} min" if wall is not None else "-"
        print(f"{package:<12}{len(c.statuses):>8}{c.killed:>8}{c.survived:>9}{c.timeout:>8}"
              f"{score:>7.1f}%{eq:>7}{adj:>8.1f}%{wall_s:>9}")


def survivors(package: str, module: str | None) -> None:
    """Print each surviving mutant, marking those judged equivalent."""
    equivalent = equivalent_names()
    statuses = read_counts(package, module).statuses
    keep = WORK / package / "sample.json"
    if keep.exists():
        chosen = set(json.loads(keep.read_text())["names"])
        statuses = {k: v for k, v in statuses.items() if k in chosen}
    for key, status in sorted(statuses.items()):
        if status not in ("killed", "timeout", "caught by type check", "not checked"):
            mark = "  (equivalent)" if key in equivalent else ""
            print(f"{key}: {status}{mark}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package", action="append", choices=ORDER,
                        help="package to mutate (repeatable; default: all, in order)")
    parser.add_argument("--module", help="only this module, e.g. groundtruth.routing")
    parser.add_argument("--max-children", type=int, default=2,
                        help="parallel test processes (default 2)")
    parser.add_argument("--fresh", action="store_true", help="forget earlier results")
    parser.add_argument("--table", action="store_true", help="only print the table")
    parser.add_argument("--survivors", action="store_true", help="list surviving mutants")
    parser.add_argument("--rerun-survivors", action="store_true",
                        help="test the surviving mutants again (after adding tests)")
    parser.add_argument("--sample", type=int, default=0, metavar="N",
                        help="test a fixed random sample of N mutants per package")
    parser.add_argument("--seed", type=int, default=0, help="seed of --sample (default 0)")
    parser.add_argument("--retest", action="store_true",
                        help="with --sample: test the whole sample again (after adding tests)")
    parser.add_argument("--show", metavar="MUTANT", help="print the diff of one mutant")
    args = parser.parse_args(argv)
    packages = list(args.package or ORDER)
    if args.module and len(packages) != 1:
        parser.error("--module needs exactly one --package")
    if args.show:
        package = packages[0] if args.package else next(
            p for p in ORDER if args.show.startswith(p if p == "groundtruth" else f"cartoqa.{p}"))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        mutmut = shutil.which("mutmut") or str(Path(sys.executable).with_name("mutmut"))
        return subprocess.run([mutmut, "show", args.show], cwd=WORK / package, env=env,
                              check=False).returncode
    if args.survivors:
        for package in packages:
            survivors(package, args.module)
        return 0
    if not args.table:
        for package in packages:
            run_package(package, args.module, children=args.max_children, fresh=args.fresh,
                        sample=args.sample, seed=args.seed, rerun=args.rerun_survivors,
                        retest=args.retest)
    table(packages)
    return 0


if __name__ == "__main__":
    sys.exit(main())
