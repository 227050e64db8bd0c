"""Errors a user can cause in the cartoqa product layer."""

from __future__ import annotations

from groundtruth.errors import UserFacingError


class CartoqaError(UserFacingError):
    """A problem with the user's input that the CLI reports in one line.

    See :class:`groundtruth.errors.UserFacingError` for the ``message`` and ``fix``.
    """
