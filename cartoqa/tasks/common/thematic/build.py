"""The build machinery both thematic suites use (``cartoqa build --suite mapiq|mapwise``).

A thematic build plans its maps (a suite's ``plan_maps``), and for each map a suite's
builder draws it, runs the pixel check and makes its items (``make_slot``). Everything
around that is the same for both suites and lives here: the build key, the staged and
resumable :class:`~cartoqa.dataset.writer.DatasetWriter` run under its lock
(:func:`run_thematic_build`), the slot loop (:func:`write_map_slots`), the manifest
(:func:`thematic_manifest`), the common part of the dataset card (:func:`card_head`,
:func:`variable_line`) and the build record (:class:`ThematicReport`).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tqdm import tqdm

from cartoqa import __version__
from cartoqa.dataset.manifest import FORMAT_VERSION, count_items
from cartoqa.dataset.versions import software_versions
from cartoqa.dataset.writer import DatasetWriter
from cartoqa.errors import CartoqaError
from groundtruth.errors import UserFacingError
from renderers.thematic.draw import IMAGE_SIZE


@dataclass
class ThematicReport:
    """The outcome of a thematic-map build (MapIQ's or MapWise's)."""

    out: Path
    by_task: dict[str, int] = field(default_factory=dict)
    maps: int = 0
    maps_rejected: dict[str, int] = field(default_factory=dict)
    questions_skipped: dict[str, int] = field(default_factory=dict)
    already_complete: bool = False

    @property
    def total(self) -> int:
        """Items in the dataset."""
        return sum(self.by_task.values())


class SlotBuilder(Protocol):
    """A suite's builder: everything one map needs, loaded once."""

    def make_slot(self, plan: Any, rejected: Counter[str],
                  skipped: Counter[str]) -> tuple[list[dict[str, Any]], bytes] | None:
        """Items and PNG of one planned map, or ``None`` when it was rejected."""


@dataclass(frozen=True)
class ManifestParts:
    """What a suite adds to the manifest a thematic build writes.

    Attributes
    ----------
    attribution : str
        Sources and licences, one line.
    sources : dict
        ``manifest["sources"]``: boundaries and variables.
    rendering : dict
        ``manifest["rendering"]``: how the maps were drawn.
    """

    attribution: str
    sources: dict[str, Any]
    rendering: dict[str, Any]


def build_key(suite: str, data: Any, **settings: Any) -> dict[str, Any]:
    """The build key of a thematic dataset: software, suite, a digest of the data (any
    JSON value) and the settings that change the items, in the order given.

    Examples
    --------
    >>> key = build_key("mapwise", {"usa": [["a", {"TX": 1}]]}, seed=0)
    >>> list(key), len(key["data_sha256"])
    (['cartoqa', 'format_version', 'suite', 'data_sha256', 'seed'], 64)
    """
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    return {"cartoqa": __version__, "format_version": FORMAT_VERSION, "suite": suite,
            "data_sha256": digest, **settings}


def write_map_slots(writer: DatasetWriter, builder: SlotBuilder, plans: Sequence[Any], *,
                    task: str, progress: bool, rejected: Counter[str],
                    skipped: Counter[str]) -> None:
    """Draw, check and journal every planned map not done yet.

    Parameters
    ----------
    writer : DatasetWriter
        The open dataset writer (resumed slots are skipped).
    builder : SlotBuilder
        The suite's builder: ``make_slot(plan, rejected, skipped)`` returns the map's items
        and PNG bytes, or ``None`` when the map was rejected.
    plans : sequence
        The planned maps, each with an ``index`` (its slot).
    task : str
        The journal's slot key.
    progress : bool
        Show a progress bar.
    rejected, skipped : collections.Counter
        Rejected maps and skipped questions by reason, updated in place.
    """
    for plan in tqdm(plans, desc=task, unit="map", disable=not progress, file=sys.stderr):
        if writer.done(task, plan.index) is not None:
            continue
        made = builder.make_slot(plan, rejected, skipped)
        if made is None:
            writer.record(task, plan.index, [], status="failed")
            continue
        items, png = made
        writer.write_image(Path(items[0]["image"]).name, png)
        writer.record(task, plan.index, items)


def thematic_manifest(suite: str, parts: ManifestParts, items: list[dict[str, Any]], *,
                      planned: int, accepted: int, rejected: Mapping[str, int],
                      skipped: Mapping[str, int]) -> dict[str, Any]:
    """The manifest of a thematic dataset (the writer adds the build key and checksums)."""
    return {
        "format_version": FORMAT_VERSION,
        "suite": suite,
        "attribution": parts.attribution,
        "sources": parts.sources,
        "versions": software_versions(),
        "image_sizes": {spec: list(IMAGE_SIZE) for spec in
                        sorted({str(i["task"]) for i in items})},
        "counts": count_items(items),
        "maps": {"planned": planned, "accepted": accepted,
                 "rejected_by_reason": dict(sorted(rejected.items())),
                 "questions_skipped_by_reason": dict(sorted(skipped.items())),
                 "note": "rejection counts cover the maps drawn by the last run "
                         "(a resumed build does not redraw finished maps)"},
        "rendering": parts.rendering,
    }


def run_thematic_build(writer: DatasetWriter, *, suite: str, task: str, plans: Sequence[Any],
                       make_builder: Callable[[], SlotBuilder],
                       manifest_parts: Callable[[SlotBuilder], ManifestParts],
                       card_for: Callable[[dict[str, Any]], str], progress: bool,
                       say: Callable[[str], None]) -> ThematicReport:
    """Build (or resume, or confirm) a thematic dataset folder under the writer's lock.

    Parameters
    ----------
    writer : DatasetWriter
        The writer of the output folder, with the suite's build key.
    suite, task : str
        The suite and the journal's slot key.
    plans : sequence
        The planned maps.
    make_builder : callable
        Returns the suite's builder (called only when maps remain to draw).
    manifest_parts : callable
        The suite's part of the manifest, from its builder.
    card_for : callable
        The dataset card (README.md) from the manifest.
    progress : bool
        Show a progress bar.
    say : callable
        One-line notices.

    Returns
    -------
    ThematicReport

    Raises
    ------
    CartoqaError
        When no map passed the pixel check (nothing is left behind).
    """
    out = writer.out
    writer.lock()  # this build alone writes the folder
    try:
        report = ThematicReport(out=out)
        if writer.is_complete():
            report.already_complete = True
            return report
        previous = writer.open()
        if previous:
            say(f"resuming the build in {out}: {len(previous)} map(s) already done")
        rejected: Counter[str] = Counter()
        skipped: Counter[str] = Counter()
        try:
            builder = make_builder()
            write_map_slots(writer, builder, plans, task=task, progress=progress,
                            rejected=rejected, skipped=skipped)
        except (KeyboardInterrupt, OSError):
            writer.abandon()  # interrupted, or the disk: the journal lets a rerun resume
            raise
        except UserFacingError:
            writer.abandon()
            raise
        except Exception as exc:
            # a map that cannot be drawn from these data fails the same way on every
            # rerun: keep no half-built dataset, report one line
            writer.abandon_all()
            raise CartoqaError(
                f"the {suite} build stopped at a map it could not draw "
                f"({type(exc).__name__}: {exc}); nothing was kept",
                fix="check the data table (every region of the map needs a value); if "
                    "it is complete, this is a bug worth reporting") from exc
        if not writer.items():
            writer.abandon_all()
            raise CartoqaError("no map passed the pixel check", fix="check the data table")
        accepted = sum(1 for r in writer.records() if r.status == "ok")
        parts = manifest_parts(builder)

        def manifest_for(its: list[dict[str, Any]]) -> dict[str, Any]:
            return thematic_manifest(suite, parts, its, planned=len(plans), accepted=accepted,
                                     rejected=rejected, skipped=skipped)

        for item in writer.finalise(manifest_for=manifest_for, card_for=card_for):
            report.by_task[item["task"]] = report.by_task.get(item["task"], 0) + 1
        report.maps = accepted
        report.maps_rejected = dict(rejected)
        report.questions_skipped = dict(skipped)
        return report
    finally:
        writer.unlock()


def card_head(manifest: Mapping[str, Any], *, title: str, summary: str,
              facts: Sequence[str], blurbs: Mapping[str, str],
              request_column: bool) -> list[str]:
    """The first lines of a thematic dataset card: title, summary, facts, the maps kept
    and the task table (with a column of question types when ``request_column``)."""
    counts = manifest.get("counts", {})
    maps = manifest.get("maps", {})
    lines = [f"# {title}", "", summary, "", *facts,
             f"- maps: {maps.get('accepted')} accepted of {maps.get('planned')} planned; "
             f"rejected by reason: {maps.get('rejected_by_reason') or 'none'}",
             "", "## Tasks", ""]
    if request_column:
        lines += ["| task | items | question types | what |", "|---|---|---|---|"]
    else:
        lines += ["| task | items | what |", "|---|---|---|"]
    for task, n in counts.get("by_task", {}).items():
        blurb = blurbs.get(task, "")
        if request_column:
            reqs = ", ".join(f"{r} {c}" for r, c in
                             counts.get("by_request", {}).get(task, {}).items())
            lines.append(f"| {task} | {n} | {reqs} | {blurb} |")
        else:
            lines.append(f"| {task} | {n} | {blurb} |")
    return lines


def variable_line(card: Mapping[str, Any], label: str) -> str:
    """One card line about a variable's source and licence (generated ones marked).

    Examples
    --------
    >>> variable_line({"key": "gen_x", "title": "X", "source": "seeded", "licence": "n/a",
    ...                "generated": True}, "india `gen_x`")
    '- india `gen_x`: X — seeded; licence: n/a **(generated, not real data)**'
    """
    tag = " **(generated, not real data)**" if card.get("generated") else ""
    return f"- {label}: {card['title']} — {card['source']}; licence: {card['licence']}{tag}"
