"""The predictions file: one JSON object per line, appended and synced per answer.

A run killed mid-write can leave a truncated last line; reading repairs that by
cutting the file back to its last complete line, so a rerun sends that item again.
A last line that is a complete JSON object but lacks its newline (a write cut just
before it, or a file written by another tool) is complete: it is kept, by
``cartoqa run`` and ``cartoqa score`` alike, and resuming adds the newline.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from cartoqa.errors import CartoqaError


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
            record = json.loads(line)
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
        record = json.loads(fragment)
    except (json.JSONDecodeError, UnicodeDecodeError):
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
    if not path.exists():
        return []
    data = path.read_bytes()
    records, good = parse_prediction_bytes(data, source=str(path))
    if good < len(data):
        with path.open("r+b") as fh:
            fh.truncate(good)
            fh.flush()
            os.fsync(fh.fileno())
    elif data and not data.endswith(b"\n"):
        # a complete last record without its newline: end the line before appending
        with path.open("ab") as fh:
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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = self.path.open("ab")
        return self

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
        if self._fh is None:
            raise RuntimeError("PredictionWriter used outside its with-block")
        line = json.dumps(record, ensure_ascii=False) + "\n"
        self._fh.write(line.encode("utf-8"))
        self._fh.flush()
        os.fsync(self._fh.fileno())
