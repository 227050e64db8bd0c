"""Errors a user can cause, as opposed to bugs.

:class:`UserFacingError` is the common base of every package's user errors
(:class:`GroundTruthError` here, ``renderers.errors.RenderError`` and
``cartoqa.errors.CartoqaError``); it lives in the lowest layer so that all three share
it. The CLI prints such an error as one line, ``message (fix)``, and exits with status 2.
"""

from __future__ import annotations


class UserFacingError(Exception):
    """A problem with the user's input or machine that the user can fix.

    Parameters
    ----------
    message : str
        What is wrong, in one sentence.
    fix : str, optional
        What the user can do about it.

    Examples
    --------
    >>> str(UserFacingError("zoom 14 is outside 15-19", "choose a zoom from 15 to 19"))
    'zoom 14 is outside 15-19 (choose a zoom from 15 to 19)'
    """

    def __init__(self, message: str, fix: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix

    def __str__(self) -> str:
        return self.message if not self.fix else f"{self.message} ({self.fix})"


class GroundTruthError(UserFacingError):
    """A problem with the extract, view or route asked of :mod:`groundtruth`."""
