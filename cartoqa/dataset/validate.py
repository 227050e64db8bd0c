"""Check a dataset folder against the item schema, its images and its manifest."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from cartoqa.dataset import ATTRIBUTION
from cartoqa.dataset.manifest import count_items
from cartoqa.dataset.reader import images_list_problem, item_images
from cartoqa.dataset.schema import item_errors
from cartoqa.dataset.writer import (
    CHECKSUMS_KEY,
    IMAGES_DIR,
    ITEMS_FILE,
    MANIFEST_FILE,
    STAGING_DIR,
    sha256_bytes,
)
from cartoqa.declarations.registry import task_specs
from cartoqa.errors import CartoqaError
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def map_tasks() -> frozenset[str]:
    """Return the tasks whose images are map screenshots of the standard viewport.

    Examples
    --------
    >>> sorted(map_tasks())[-5:], "frieda_border" in map_tasks()
    (['mml', 'mtmf', 'rle', 'srn', 'stmf'], True)
    """
    return frozenset(s.name for s in task_specs() if s.map_task)


@dataclass
class ValidationReport:
    """What :func:`validate_dataset` found.

    Attributes
    ----------
    items : int
        Items read.
    images : int
        Distinct image files checked.
    errors : list of str
        Problems; empty means the dataset is valid.
    """

    items: int = 0
    images: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether no problem was found."""
        return not self.errors


def png_size(path: Path) -> tuple[int, int] | str:
    """Return ``(width, height)`` of a PNG file, or a message saying what is wrong.

    Parameters
    ----------
    path : pathlib.Path
        The file.

    Returns
    -------
    tuple of int or str
        The size, or a problem description.
    """
    if not path.is_file():
        return "missing"
    with open(path, "rb") as fh:
        if fh.read(8) != PNG_SIGNATURE:
            return "not a PNG file"
    try:
        with Image.open(path) as im:
            im.verify()
        with Image.open(path) as im:
            return (int(im.size[0]), int(im.size[1]))
    except (UnidentifiedImageError, OSError, SyntaxError) as exc:
        return f"unreadable PNG ({exc})"


def _expected_size(task: str, manifest: dict[str, Any]) -> tuple[int, int] | None:
    sizes = manifest.get("image_sizes") or {}
    if task in sizes:
        w, h = sizes[task]
        return int(w), int(h)
    if task in map_tasks():
        return VIEW_WIDTH, VIEW_HEIGHT
    return None


def validate_dataset(root: Path, *, max_errors: int = 200) -> ValidationReport:
    """Check a dataset folder.

    Checks that every line of ``items.jsonl`` is an item conforming to the shipped
    schema, that ids are unique and sorted, that every image exists, is a PNG and has
    the size its task uses, and that ``manifest.json`` carries the attribution and
    counts equal to the items'.

    Parameters
    ----------
    root : pathlib.Path
        The dataset folder.
    max_errors : int, optional
        Stop collecting after this many problems.

    Returns
    -------
    ValidationReport
        Counts and problems.

    Raises
    ------
    CartoqaError
        If the folder does not exist or has no ``items.jsonl``.
    """
    if not root.is_dir():
        raise CartoqaError(f"dataset folder {root} not found",
                           fix="give the folder `cartoqa build --out` wrote")
    items_path = root / ITEMS_FILE
    if not items_path.is_file():
        hint = ("an unfinished build is staged there: rerun the same `cartoqa build` command "
                "to finish it") if (root / STAGING_DIR).exists() else \
            "give the folder `cartoqa build --out` wrote"
        raise CartoqaError(f"{root} has no {ITEMS_FILE}, so it is not a dataset", fix=hint)
    report = ValidationReport()
    errors = report.errors

    def add(msg: str) -> None:
        if len(errors) < max_errors:
            errors.append(msg)

    try:
        manifest = json.loads((root / MANIFEST_FILE).read_text("utf-8"))
        if not isinstance(manifest, dict):
            raise ValueError("not an object")
    except (OSError, ValueError) as exc:
        add(f"{MANIFEST_FILE}: missing or not a JSON object ({exc})")
        manifest = {}

    items: list[dict[str, Any]] = []
    ids: list[str] = []
    for number, line in enumerate(items_path.read_text("utf-8").splitlines(), start=1):
        if not line.strip():
            add(f"{ITEMS_FILE} line {number}: blank line")
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            add(f"{ITEMS_FILE} line {number}: not JSON ({exc.msg})")
            continue
        for err in item_errors(item):
            add(f"{ITEMS_FILE} line {number} ({item.get('id') if isinstance(item, dict) else '?'})"
                f" {err}")
        if isinstance(item, dict):
            items.append(item)
            ids.append(str(item.get("id")))
    report.items = len(items)
    repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
    if repeated:
        add(f"{ITEMS_FILE}: repeated ids {', '.join(repeated[:5])}")
    if ids != sorted(ids):
        add(f"{ITEMS_FILE}: items are not sorted by id")

    sizes: dict[str, tuple[int, int] | str] = {}
    for item in items:
        problem = images_list_problem(item)
        if problem:
            add(f"{item.get('id')}: {problem}")
        for image in item_images(item):
            if image not in sizes:
                sizes[image] = png_size(root / image)
            got = sizes[image]
            if isinstance(got, str):
                add(f"{item.get('id')}: image {image}: {got}")
                continue
            want = _expected_size(str(item.get("task")), manifest)
            if want is not None and got != want:
                add(f"{item.get('id')}: image {image} is {got[0]}x{got[1]}, "
                    f"expected {want[0]}x{want[1]}")
    report.images = len(sizes)

    if manifest:
        if manifest.get("suite") is not None:  # thematic suites: sources, not OSM
            if not manifest.get("attribution") or not manifest.get("sources"):
                add(f"{MANIFEST_FILE}: a {manifest['suite']} dataset must name its sources "
                    "and their licences (attribution, sources)")
        elif ATTRIBUTION not in str(manifest.get("attribution", "")):
            add(f"{MANIFEST_FILE}: attribution must contain '{ATTRIBUTION}'")
        for problem in count_problems(manifest.get("counts"), count_items(items)):
            add(problem)
        for problem in checksum_problems(root, manifest, items_path):
            add(problem)
        for problem in unsummed_images(manifest, items):
            add(problem)
    for problem in orphan_images(root, items):
        add(problem)
    return report


def count_problems(got: Any, want: dict[str, Any]) -> list[str]:
    """Say where the manifest's counts differ from the items' (at most five places).

    Parameters
    ----------
    got : object
        The manifest's ``counts``.
    want : dict
        :func:`cartoqa.dataset.manifest.count_items` of the items.

    Returns
    -------
    list of str
        Empty when they agree; otherwise one message naming the differing counts.

    Examples
    --------
    >>> got = {"total": 2, "by_task": {"mml": 2}}
    >>> want = {"total": 2, "by_task": {"mml": 3}}
    >>> count_problems(got, want)[0].split("items: ")[1]
    'by_task.mml is 2 in the manifest, 3 in items.jsonl'
    """
    if got == want:
        return []
    diffs: list[str] = []

    def walk(a: Any, b: Any, path: str) -> None:
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), key=str):
                walk(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
        elif a != b:
            diffs.append(f"{path or 'counts'} is {json.dumps(a)} in the manifest, "
                         f"{json.dumps(b)} in {ITEMS_FILE}")

    walk(got, want, "")
    more = f" (and {len(diffs) - 5} more)" if len(diffs) > 5 else ""
    return [f"{MANIFEST_FILE}: counts do not match the items: " + "; ".join(diffs[:5]) + more]


def checksum_problems(root: Path, manifest: dict[str, Any], items_path: Path) -> list[str]:
    """Compare ``items.jsonl`` and every recorded image with the manifest's checksums.

    Parameters
    ----------
    root : pathlib.Path
        The dataset folder.
    manifest : dict
        The manifest (its ``checksums``: relative path to SHA-256).
    items_path : pathlib.Path
        ``items.jsonl``.

    Returns
    -------
    list of str
        One message per file that changed or went missing, or for missing checksums.
    """
    sums = manifest.get(CHECKSUMS_KEY)
    if not isinstance(sums, dict) or ITEMS_FILE not in sums:
        return [f"{MANIFEST_FILE}: records no checksums, so edits cannot be detected "
                "(rebuild the dataset with this cartoqa version)"]
    problems = []
    for rel, want in sorted(sums.items()):
        path = root / rel
        inside = rel.startswith(IMAGES_DIR + "/") and ".." not in Path(rel).parts
        if rel != ITEMS_FILE and not inside:
            problems.append(f"{MANIFEST_FILE}: checksum for an unexpected path {rel!r}")
            continue
        try:
            got = sha256_bytes(path.read_bytes())
        except OSError:
            problems.append(f"{rel}: missing (the manifest records its checksum)")
            continue
        if got != want:
            what = "items.jsonl was edited after the build" if rel == ITEMS_FILE else \
                f"{rel} was changed or replaced after the build"
            problems.append(f"{what} (sha256 {got[:12]}..., manifest {str(want)[:12]}...)")
    return problems


def orphan_images(root: Path, items: list[dict[str, Any]]) -> list[str]:
    """Name files in ``images/`` that no item refers to.

    Parameters
    ----------
    root : pathlib.Path
        The dataset folder.
    items : list of dict
        The items read.

    Returns
    -------
    list of str
        One message listing up to five orphans, or nothing.
    """
    folder = root / IMAGES_DIR
    if not folder.is_dir():
        return []
    referenced = {rel for it in items for rel in item_images(it)}
    orphans = sorted(f"{IMAGES_DIR}/{p.name}" for p in folder.iterdir()
                     if f"{IMAGES_DIR}/{p.name}" not in referenced)
    if not orphans:
        return []
    more = f" and {len(orphans) - 5} more" if len(orphans) > 5 else ""
    return [f"{len(orphans)} file(s) in {IMAGES_DIR}/ belong to no item: "
            + ", ".join(orphans[:5]) + more]


def unsummed_images(manifest: dict[str, Any], items: list[dict[str, Any]]) -> list[str]:
    """Name images an item refers to whose checksum the manifest does not record.

    Parameters
    ----------
    manifest : dict
        The manifest.
    items : list of dict
        The items read.

    Returns
    -------
    list of str
        One message listing up to five such images, or nothing (also when the manifest
        records no checksums at all: :func:`checksum_problems` says so).
    """
    sums = manifest.get(CHECKSUMS_KEY)
    if not isinstance(sums, dict) or ITEMS_FILE not in sums:
        return []
    missing = sorted({rel for it in items for rel in item_images(it)} - set(sums))
    if not missing:
        return []
    more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
    return [f"{MANIFEST_FILE}: records no checksum for {len(missing)} image(s) the items "
            "refer to: " + ", ".join(missing[:5]) + more]
