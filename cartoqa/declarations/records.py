"""One scored answer: the item, what its response parsed to, and per-item measures."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cartoqa.parsing import Parsed, ParseResult

#: Checks that a predicted SRN route is a connected drivable path from the item's origin
#: to its destination: ``is_connected(item, steps) -> bool``, or ``None`` when it cannot
#: tell (e.g. the item's extract is not available).
ConnectivityChecker = Callable[[Mapping[str, Any], Sequence[str]], bool | None]


@dataclass
class Record:
    """A scored answer.

    Parameters
    ----------
    item : mapping
        The dataset item.
    result : Parsed or Invalid
        What the response parsed to.
    measures : dict
        Per-item measures (``correct``, ``f1``, ``abs_error_m``, ...); empty for an
        invalid answer.
    """

    item: Mapping[str, Any]
    result: ParseResult
    measures: dict[str, Any] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        """Whether the response was parsed."""
        return self.result.valid

    @property
    def value(self) -> dict[str, Any]:
        """The parsed answer (empty for an invalid answer)."""
        return self.result.value if isinstance(self.result, Parsed) else {}

    @property
    def answer(self) -> Mapping[str, Any]:
        """The item's true answer."""
        answer = self.item.get("answer")
        return answer if isinstance(answer, Mapping) else {}
