"""The dataset writer: staged, resumable, finalised atomically.

While a build runs, the output folder holds only images and a staging folder
``DIR/.cartoqa-build/`` with ``build.json`` (the options the build was started with)
and ``journal.jsonl`` (one line per finished scenario slot, flushed to disk). A killed
build is resumed by running the same command again: finished slots are read back from
the journal and skipped.

Finalisation writes ``manifest.json`` and ``README.md`` and then, last, ``items.jsonl``
(each by rename), then removes the staging folder. ``items.jsonl`` is what makes a
folder a dataset, so a folder either has no ``items.jsonl`` (an unfinished build) or a
complete, valid dataset.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cartoqa.dataset.balance import (
    BALANCE_KEY,
    balance_card,
    balance_record,
    yes_no_quota,
)
from cartoqa.dataset.files import (
    dumps_line,
    write_bytes_atomic,
    write_json_atomic,
    write_text_atomic,
)
from cartoqa.dataset.reader import images_list_problem, item_images
from cartoqa.dataset.schema import item_errors
from cartoqa.declarations.suites import TASK_MODULES
from cartoqa.errors import CartoqaError

STAGING_DIR = ".cartoqa-build"
BUILD_FILE = "build.json"
JOURNAL_FILE = "journal.jsonl"
ITEMS_FILE = "items.jsonl"
MANIFEST_FILE = "manifest.json"
CARD_FILE = "README.md"
IMAGES_DIR = "images"
#: Manifest key holding ``{relative path: sha256}`` of items.jsonl and every image.
CHECKSUMS_KEY = "checksums"


def sha256_bytes(data: bytes) -> str:
    """Return the hex SHA-256 of ``data``.

    Examples
    --------
    >>> sha256_bytes(b"")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data).hexdigest()


def dataset_checksums(root: Path, items_text: str, images: Iterable[str]) -> dict[str, str]:
    """Checksums of a dataset's files, as recorded in its manifest.

    Parameters
    ----------
    root : pathlib.Path
        The dataset folder.
    items_text : str
        The exact text of ``items.jsonl``.
    images : iterable of str
        Dataset-relative image paths (``images/<name>.png``).

    Returns
    -------
    dict
        ``{"items.jsonl": sha256, "images/<name>.png": sha256, ...}``, sorted by path.
    """
    sums = {ITEMS_FILE: sha256_bytes(items_text.encode("utf-8"))}
    for image in sorted(set(images)):
        sums[image] = sha256_bytes((root / image).read_bytes())
    return dict(sorted(sums.items()))


@dataclass(frozen=True)
class SlotRecord:
    """One finished scenario slot of a task.

    Attributes
    ----------
    task : str
        Task name.
    slot : int
        Index of the scenario within the task.
    status : str
        ``"ok"`` (items were made) or ``"failed"`` (no acceptable scenario was found).
    items : list of dict
        The slot's items (empty when failed).
    """

    task: str
    slot: int
    status: str
    items: list[dict[str, Any]] = field(default_factory=list)


def check_writable_folder(out: Path) -> bool:
    """Create ``out`` if needed and check that files can be written in it.

    Parameters
    ----------
    out : pathlib.Path
        The output folder.

    Returns
    -------
    bool
        Whether the folder was created by this call.

    Raises
    ------
    CartoqaError
        If the folder cannot be created or written to.
    """
    created = not out.exists()
    if out.exists() and not out.is_dir():
        raise CartoqaError(f"output {out} exists and is not a folder",
                           fix="give --out a folder path")
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f".cartoqa-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise CartoqaError(f"cannot write to output folder {out} ({exc.strerror or exc})",
                           fix="choose a folder you can write to with --out") from None
    return created


def read_journal(path: Path) -> list[SlotRecord]:
    """Read a journal, ignoring a last line cut short by a kill.

    Parameters
    ----------
    path : pathlib.Path
        ``journal.jsonl``; a missing file reads as empty.

    Returns
    -------
    list of SlotRecord
        Records in file order; a later record for the same slot replaces an earlier one.
    """
    if not path.exists():
        return []
    records: list[SlotRecord] = []
    for line in path.read_text("utf-8").split("\n"):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError:
            break  # a torn write: nothing after it was acknowledged
        records.append(SlotRecord(task=raw["task"], slot=int(raw["slot"]),
                                  status=raw["status"], items=list(raw["items"])))
    return records


class DatasetWriter:
    """Write one dataset folder, resumably.

    Parameters
    ----------
    out : pathlib.Path
        The dataset folder.
    build_key : dict
        The options that determine the dataset (extract checksum, seed, tasks, size,
        version). A staging folder or a finished dataset with another key is refused.
    """

    def __init__(self, out: Path, *, build_key: dict[str, Any]) -> None:
        self.out = out
        self.build_key = json.loads(dumps_line(build_key))
        self.staging = out / STAGING_DIR
        self.images = out / IMAGES_DIR
        self._records: dict[tuple[str, int], SlotRecord] = {}
        self._created_out = False
        self._lock_fd: int | None = None

    # -- exclusive use of the folder -------------------------------------------------
    def lock(self) -> None:
        """Create ``out`` if needed and take it for this build alone.

        An exclusive ``flock`` on the folder itself (no lock file is left behind); the
        kernel drops it when this process exits, however it exits.

        Raises
        ------
        CartoqaError
            If the folder cannot be created or written, or another build holds it.
        """
        if self._lock_fd is not None:
            return
        self._created_out = check_writable_folder(self.out)
        fd = os.open(self.out, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise CartoqaError(
                f"{self.out} is in use by another cartoqa build",
                fix="wait for that build to finish, or choose another --out folder",
            ) from None
        self._lock_fd = fd

    def unlock(self) -> None:
        """Release the folder (safe to call twice)."""
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            os.close(fd)

    # -- state of the folder ---------------------------------------------------------
    def is_complete(self) -> bool:
        """Whether ``out`` already holds the finished dataset of this build key.

        Raises
        ------
        CartoqaError
            If it holds a finished dataset made with other options.
        """
        items = self.out / ITEMS_FILE
        if not items.exists():
            return False
        try:
            manifest = json.loads((self.out / MANIFEST_FILE).read_text("utf-8"))
            key = manifest.get("build")
        except (OSError, ValueError):
            key = None
        if key != self.build_key:
            raise CartoqaError(
                f"{self.out} already holds a dataset built with other options",
                fix="choose another --out folder, or delete this one to rebuild",
            )
        if self.staging.exists():  # killed after items.jsonl was renamed in: tidy up
            shutil.rmtree(self.staging, ignore_errors=True)
        return True

    def open(self) -> list[SlotRecord]:
        """Create or reopen the staging folder.

        Returns
        -------
        list of SlotRecord
            Slots finished by an earlier, interrupted run with the same options.

        Raises
        ------
        CartoqaError
            If the folder cannot be written, is not empty and not a build of ours, or
            holds an unfinished build with other options.
        """
        if self._lock_fd is None:
            self._created_out = check_writable_folder(self.out)
        build_file = self.staging / BUILD_FILE
        if self.staging.exists():
            try:
                key = json.loads(build_file.read_text("utf-8"))
            except (OSError, ValueError):
                key = None
            if key is not None and key != self.build_key:
                raise CartoqaError(
                    f"{self.out} holds an unfinished build with other options",
                    fix="rerun with the same options to resume it, or delete the folder",
                )
        else:
            # images/ is no exception: images of another build would be taken as ours.
            extra = [p.name for p in self.out.iterdir()]
            if extra:
                raise CartoqaError(
                    f"output folder {self.out} is not empty and holds no cartoqa build "
                    f"({', '.join(sorted(extra)[:3])})",
                    fix="choose a new or empty folder with --out",
                )
        self.staging.mkdir(exist_ok=True)
        self.images.mkdir(exist_ok=True)
        if not build_file.exists():
            write_json_atomic(build_file, self.build_key)
        journal = self.staging / JOURNAL_FILE
        records = read_journal(journal)
        # drop a torn last line so that appends start on a clean line
        if journal.exists():
            good = "".join(dumps_line(self._raw(r)) + "\n" for r in records)
            if journal.read_text("utf-8") != good:
                write_text_atomic(journal, good)
        self._records = {(r.task, r.slot): r for r in records}
        return records

    def abandon(self) -> None:
        """Remove what :meth:`open` made when nothing was written yet (a failed start)."""
        if self._records:
            return
        # No slot was recorded, so any image is one this build (or an earlier start of
        # it, with the same options) wrote before failing: remove them with the staging.
        shutil.rmtree(self.staging, ignore_errors=True)
        shutil.rmtree(self.images, ignore_errors=True)
        if self._created_out and self.out.exists() and not any(self.out.iterdir()):
            self.out.rmdir()

    def abandon_all(self) -> None:
        """Remove the staging folder and images of a build that produced nothing usable."""
        shutil.rmtree(self.staging, ignore_errors=True)
        shutil.rmtree(self.images, ignore_errors=True)
        if self._created_out and self.out.exists() and not any(self.out.iterdir()):
            self.out.rmdir()

    def records(self) -> list[SlotRecord]:
        """Journal records so far (finished and failed slots)."""
        return list(self._records.values())

    # -- writing ---------------------------------------------------------------------
    def done(self, task: str, slot: int) -> SlotRecord | None:
        """Return the journal record of a slot, or ``None`` if it is still to do."""
        return self._records.get((task, slot))

    def has_image(self, name: str) -> bool:
        """Whether ``images/<name>`` was already written."""
        return (self.images / name).is_file()

    def write_image(self, name: str, png: bytes) -> str:
        """Write an image atomically and return its dataset-relative path.

        Parameters
        ----------
        name : str
            File name ending in ``.png``.
        png : bytes
            The PNG bytes.

        Returns
        -------
        str
            ``"images/<name>"``.
        """
        write_bytes_atomic(self.images / name, png)
        return f"{IMAGES_DIR}/{name}"

    @staticmethod
    def _raw(record: SlotRecord) -> dict[str, Any]:
        return {"task": record.task, "slot": record.slot, "status": record.status,
                "items": record.items}

    def record(self, task: str, slot: int, items: list[dict[str, Any]], *,
               status: str = "ok") -> None:
        """Append a finished slot to the journal (flushed to disk before returning).

        Parameters
        ----------
        task : str
            Task name.
        slot : int
            Scenario index.
        items : list of dict
            The slot's items; their images must already be written.
        status : {"ok", "failed"}
            ``"failed"`` records that the slot could not be filled.
        """
        rec = SlotRecord(task=task, slot=slot, status=status,
                         items=json.loads(dumps_line(items)))
        with open(self.staging / JOURNAL_FILE, "a", encoding="utf-8") as fh:
            fh.write(dumps_line(self._raw(rec)) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self._records[(task, slot)] = rec

    def items(self) -> list[dict[str, Any]]:
        """All items recorded so far, sorted by id."""
        out = [it for r in self._records.values() if r.status == "ok" for it in r.items]
        return sorted(out, key=lambda it: str(it["id"]))

    # -- finishing -------------------------------------------------------------------
    def _task_names(self) -> list[str] | None:
        """The tasks of the build key (their schema checks the items), if it names them."""
        tasks = self.build_key.get("tasks")
        if (isinstance(tasks, list) and tasks
                and all(isinstance(t, str) and t in TASK_MODULES for t in tasks)):
            return list(tasks)
        return None

    def finalise(self, *, manifest_for: Callable[[list[dict[str, Any]]], dict[str, Any]],
                 card_for: Callable[[dict[str, Any]], str]) -> list[dict[str, Any]]:
        """Check the items and write ``manifest.json``, ``README.md`` and ``items.jsonl``.

        A yes/no request whose answers lean past the limit loses the surplus of the
        leaning answer (:func:`cartoqa.dataset.balance.yes_no_quota`); the manifest's
        ``answer_balance`` and the card record the balance, what was left out and any
        request still unbalanced (also printed as a warning).

        Parameters
        ----------
        manifest_for : callable
            Builds the manifest from the sorted items.
        card_for : callable
            Builds the dataset card text from the manifest.

        Returns
        -------
        list of dict
            The items written, sorted by id.

        Raises
        ------
        CartoqaError
            If an item fails the schema, ids repeat or an image is missing; the staging
            folder is kept and no ``items.jsonl`` is written.
        """
        kept, dropped = yes_no_quota(self.items())
        items = [dict(i) for i in kept]
        for key, n in dropped.items():
            print(f"note: {key}: {n} item(s) of the leaning answer left out to keep yes "
                  "and no balanced (see the card's answer balance)", file=sys.stderr)
        problems = list(_item_problems(items, self.out, self._task_names()))
        if problems:
            raise CartoqaError(
                "the build produced items that do not validate: " + "; ".join(problems[:3]),
                fix="this is a bug in cartoqa: please report it with the command line",
            )
        referenced = {Path(rel).name for it in items for rel in item_images(it)}
        for path in self.images.iterdir():
            if path.name not in referenced:
                path.unlink()
        items_text = "".join(dumps_line(it) + "\n" for it in items)
        manifest = manifest_for(items)
        manifest["build"] = self.build_key
        manifest[BALANCE_KEY] = balance_record(items, dropped)
        for line in manifest[BALANCE_KEY]["warnings"]:
            print(f"warning: unbalanced answers: {line}", file=sys.stderr)
        manifest[CHECKSUMS_KEY] = dataset_checksums(self.out, items_text,
                                                    (rel for it in items
                                                     for rel in item_images(it)))
        write_json_atomic(self.out / MANIFEST_FILE, manifest)
        write_text_atomic(self.out / CARD_FILE, card_for(manifest)
                          + balance_card(manifest[BALANCE_KEY]))
        write_text_atomic(self.out / ITEMS_FILE, items_text)
        shutil.rmtree(self.staging, ignore_errors=True)
        return items


def _item_problems(items: Iterable[dict[str, Any]], root: Path,
                   tasks: Sequence[str] | None = None) -> Iterable[str]:
    seen: set[str] = set()
    for item in items:
        item_id = str(item.get("id"))
        if item_id in seen:
            yield f"id {item_id} repeats"
        seen.add(item_id)
        for err in item_errors(item, tasks=tasks):
            yield f"{item_id} {err}"
        for image in item_images(item):
            if not (root / image).is_file():
                yield f"{item_id}: image {image} is missing"
        problem = images_list_problem(item)
        if problem:
            yield f"{item_id}: {problem}"
