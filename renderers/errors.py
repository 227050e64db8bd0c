"""Errors a user can cause while rendering (missing system packages, busy sockets, bad views)."""

from __future__ import annotations

from groundtruth.errors import UserFacingError


class RenderError(UserFacingError):
    """A rendering problem the user can fix (see :class:`groundtruth.errors.UserFacingError`)."""
