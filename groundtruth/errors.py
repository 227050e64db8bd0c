"""Errors a user can cause when asking for ground truth."""

from __future__ import annotations


class GroundTruthError(Exception):
    """A problem with the user's input (extract, view, route) rather than a bug.

    Parameters
    ----------
    message : str
        What is wrong, in one sentence.
    fix : str, optional
        What the user can do about it.
    """

    def __init__(self, message: str, fix: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix

    def __str__(self) -> str:
        return self.message if not self.fix else f"{self.message} ({self.fix})"
