"""The predictions file: one JSON object per line, appended and synced per answer.

A run killed mid-write can leave a truncated last line; reading repairs that by
cutting the file back to its last complete line, so a rerun sends that item again.
A last line that is a complete JSON object but lacks its newline (a write cut just
before it, or a file written by another tool) is complete: it is kept, by
``cartoqa run`` and ``cartoqa score`` alike, and resuming adds the newline.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from cartoqa.errors import CartoqaError
from cartoqa.limits import JsonTooDeepError, loads_json


def parse_prediction_bytes(data: bytes, *, source: str = "predictions") -> tuple[
    list[dict[str, Any]], int
]:
    """Parse a predictions file's bytes, tolerating a truncated last line.

    Parameters
    ----------
    data : bytes
        The file's content.
    source : str
        Name used in error messages.

    Returns
    -------
    records : list of dict
        Every complete line's object (blank lines skipped).
    good_length : int
        Bytes up to the end of the last complete record; anything after it is a
        fragment from an interrupted write. A last line that decodes as an object with
        an ``id`` is complete even without its newline.

    Raises
    ------
    CartoqaError
        A complete line is not a JSON object with an ``id``.

    Examples
    --------
    >>> parse_prediction_bytes(b'{"id": "a", "response": "x"}\\n{"id": "b", "resp')
    ([{'id': 'a', 'response': 'x'}], 29)
    >>> parse_prediction_bytes(b'{"id": "a", "response": "x"}')
    ([{'id': 'a', 'response': 'x'}], 28)
    """
    end = data.rfind(b"\n") + 1
    records: list[dict[str, Any]] = []
    for number, line in enumerate(data[:end].split(b"\n")[:-1], start=1):
        if not line.strip():
            continue
        try:
            record = loads_json(line)
        except JsonTooDeepError as exc:
            raise CartoqaError(f"{source} line {number}: {exc}",
                               fix="fix or remove that line, or write to a new --out file",
                               ) from None
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise CartoqaError(
                f"{source} line {number} is not valid JSON",
                fix="fix or remove that line, or write to a new --out file",
            ) from None
        if not isinstance(record, dict) or "id" not in record:
            raise CartoqaError(
                f"{source} line {number} is not an object with an id",
                fix="fix or remove that line, or write to a new --out file",
            )
        records.append(record)
    tail = complete_tail(data[end:])
    if tail is not None:
        records.append(tail)
        end = len(data)
    return records, end


def complete_tail(fragment: bytes) -> dict[str, Any] | None:
    """The record a last line without newline holds, if it is complete.

    Parameters
    ----------
    fragment : bytes
        What follows the file's last newline.

    Returns
    -------
    dict or None
        The object when the fragment decodes as a JSON object with an ``id``; else
        ``None`` (a write cut mid-line, or nothing).

    Examples
    --------
    >>> complete_tail(b'{"id": "a", "response": "x"}')
    {'id': 'a', 'response': 'x'}
    >>> complete_tail(b'{"id": "a", "resp') is None
    True
    """
    if not fragment.strip():
        return None
    try:
        record = loads_json(fragment)
    except (ValueError, UnicodeDecodeError):
        return None
    return record if isinstance(record, dict) and "id" in record else None


def load_for_resume(path: Path) -> list[dict[str, Any]]:
    """Read an existing predictions file and cut off a truncated last line.

    Parameters
    ----------
    path : pathlib.Path
        The predictions file; a missing file reads as empty.

    Returns
    -------
    list of dict
        The complete records.
    """
    flags = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
    try:  # never through a link (cartoqa.runner.run resolved the user's own once)
        try:
            fd = os.open(path, os.O_RDWR | flags)
        except PermissionError:  # a read-only file: fine while it needs no repair
            fd = os.open(path, os.O_RDONLY | flags)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise CartoqaError(f"cannot open {path}: {exc.strerror}",
                           fix="give a regular .jsonl file of your own") from None
    with os.fdopen(fd, "r+b") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise CartoqaError(f"{path} is not a regular file", fix="give a .jsonl file path")
        data = fh.read()
        records, good = parse_prediction_bytes(data, source=str(path))
        if good < len(data):
            fh.truncate(good)
            fh.flush()
            os.fsync(fh.fileno())
        elif data and not data.endswith(b"\n"):
            # a complete last record without its newline: end the line before appending
            fh.seek(0, os.SEEK_END)
            fh.write(b"\n")
            fh.flush()
            os.fsync(fh.fileno())
    return records


class PredictionWriter:
    """Appends prediction records, each flushed and synced to disk before returning.

    Use as a context manager; only one thread should write.

    Parameters
    ----------
    path : pathlib.Path
        The predictions file (created with its folder when missing).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fh: IO[bytes] | None = None

    def __enter__(self) -> PredictionWriter:
        return self

    def _open(self) -> IO[bytes]:
        # opened at the first answer: a run that answers nothing leaves no empty file
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o666)
            self._fh = os.fdopen(fd, "ab")
        return self._fh

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def write(self, record: dict[str, Any]) -> None:
        """Append one record as a JSON line and sync it.

        Parameters
        ----------
        record : dict
            At least ``id`` and ``response``.
        """
        fh = self._open()
        try:
            data = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: JSON's \u escapes hold it
            data = (json.dumps(record) + "\n").encode("ascii")
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


class OutputLock:
    """An exclusive lock on a predictions file, so that two runs never append to one.

    The lock is ``flock`` on a hidden file beside it, ``.<name>.lock``, removed when
    released. A second run into the same ``--out`` stops at once with one line. A run
    that waited on a file its holder had just removed locks again (the inode is checked).

    Parameters
    ----------
    path : pathlib.Path
        The predictions file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock_path = path.with_name(f".{path.name}.lock")
        self._fd: int | None = None

    def __enter__(self) -> OutputLock:
        import fcntl

        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(100):
            try:
                fd = os.open(self.lock_path,
                             os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            except OSError as exc:  # a link or a file of another user planted there
                raise CartoqaError(
                    f"cannot lock {self.path}: {self.lock_path} ({exc.strerror})",
                    fix="remove that file if no run uses it, or pass a different --out",
                ) from None
            if os.fstat(fd).st_uid != os.geteuid():
                os.close(fd)
                raise CartoqaError(f"cannot lock {self.path}: {self.lock_path} belongs to "
                                   "another user",
                                   fix="pass a --out in a folder of your own")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise CartoqaError(
                    f"{self.path} is in use by another cartoqa run (locked through "
                    f"{self.lock_path.name})",
                    fix="wait for that run to end, or pass a different --out") from None
            try:
                same = os.stat(self.lock_path, follow_symlinks=False).st_ino == os.fstat(
                    fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self._fd = fd
                return self
            os.close(fd)  # its holder removed it as we opened it: lock the new one
        raise CartoqaError(f"cannot lock {self.lock_path}")  # pragma: no cover

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.lock_path)
            os.close(self._fd)
            self._fd = None
