"""Markdown tables in answers: which column holds the answer.

A model may answer in a table (``| # | Pharmacy | Distance |``). The answer is the
column that holds the kind asked for: the one whose header names it, else the one whose
cells all read as that kind. When two or more columns could hold it and they say
different things, the table is ambiguous and the answer invalid; it is never "the
last column" by default.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cartoqa.parsing.result import Invalid

_ROW = re.compile(r"^\s*\|(?P<cells>.*)\|\s*$")
_RULE = re.compile(r"^[\s|:\-]+$")


@dataclass(frozen=True)
class Table:
    """A markdown table: its header (``()`` when it has none) and its body rows."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def column(self, i: int) -> list[str]:
        """The non-empty cells of column ``i``, in row order."""
        return [row[i] for row in self.rows if i < len(row) and row[i]]

    @property
    def width(self) -> int:
        """The number of columns (of the widest row)."""
        return max((len(r) for r in (self.header, *self.rows)), default=0)


def find_table(lines: Sequence[str]) -> Table | None:
    """The first markdown table among the lines (two rows at least), or ``None``.

    The first row is the header when a rule line (``|---|---|``) follows it.

    Examples
    --------
    >>> t = find_table(["| # | Pharmacy |", "|---|---|", "| 1 | Alepa |"])
    >>> t.header, t.rows
    (('#', 'Pharmacy'), (('1', 'Alepa'),))
    """
    rows: list[tuple[str, ...]] = []
    header: tuple[str, ...] = ()
    for line in lines:
        m = _ROW.match(line)
        if m is None:
            if rows:
                break
            continue
        if _RULE.match(line):
            if len(rows) == 1 and not header:
                header = rows.pop()
            continue
        rows.append(tuple(c.strip() for c in m.group("cells").split("|")))
    if len(rows) + bool(header) < 2 or not rows:
        return None
    return Table(header, tuple(rows))


def answer_column(table: Table, *, heads: Callable[[str], bool],
                  reads: Callable[[str], bool], what: str = "answer"
                  ) -> list[str] | Invalid | None:
    """The cells of the column that holds the answer.

    Columns whose header names the answer (``heads``) come first; among them (or among
    all columns when no header names it) the ones whose every cell reads as the answer's
    kind (``reads``). One such column, or several that give the same cells, is the
    answer; several that differ are ambiguous (``Invalid``); none is ``None``.

    Parameters
    ----------
    table : Table
        The table.
    heads : callable
        Whether a header cell names the answer (``Name``, ``Road``, ``State``).
    reads : callable
        Whether a body cell reads as an answer of the kind.
    what : str
        What the answer is, for the reason.

    Examples
    --------
    >>> t = find_table(["| Pharmacy | Distance |", "|---|---|", "| Alepa | 120 m |"])
    >>> answer_column(t, heads=lambda h: "name" in h.lower(),
    ...               reads=lambda c: not c[:1].isdigit())
    ['Alepa']
    >>> t = find_table(["| Pharmacy | Street |", "|---|---|", "| Alepa | Mikonkatu |"])
    >>> answer_column(t, heads=lambda h: False, reads=lambda c: True).reason
    "a table with several columns that could hold the answer ('Pharmacy', 'Street')"
    """
    width = table.width
    named = [i for i in range(width) if i < len(table.header) and heads(table.header[i])]
    candidates = named or list(range(width))
    fitting = [i for i in candidates
               if table.column(i) and all(reads(c) for c in table.column(i))]
    if not fitting and named:
        fitting = [i for i in named if table.column(i)]
    if not fitting:
        return None
    columns = {tuple(table.column(i)) for i in fitting}
    if len(columns) > 1:
        shown = ", ".join(repr(table.header[i]) if i < len(table.header) and table.header[i]
                          else f"column {i + 1}" for i in fitting)
        return Invalid(f"a table with several columns that could hold the {what} ({shown})")
    return table.column(fitting[0])
