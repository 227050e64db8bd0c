"""The two outcomes of parsing a model's response: :class:`Parsed` or :class:`Invalid`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class Parsed:
    """A response turned into the structured answer of its task.

    Parameters
    ----------
    value : dict
        The answer in the same shape as the item's ``answer`` (see
        ``docs/dataset-format.md``), for example ``{"letter": "C"}``.
    notes : tuple of str
        What the parser assumed, e.g. ``"no unit given: assumed m"``.
    """

    value: dict[str, Any]
    notes: tuple[str, ...] = field(default=())

    @property
    def valid(self) -> Literal[True]:
        """Always ``True``."""
        return True


@dataclass(frozen=True)
class Invalid:
    """A response that could not be parsed; it is scored as invalid, never guessed.

    Parameters
    ----------
    reason : str
        Why the response could not be parsed, in one short sentence.
    """

    reason: str

    @property
    def valid(self) -> Literal[False]:
        """Always ``False``."""
        return False


#: What every parser returns.
ParseResult = Parsed | Invalid
