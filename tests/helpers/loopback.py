"""What the tests' loopback HTTP servers share."""

from __future__ import annotations

POLL_S = 0.05
"""How often a test server's ``serve_forever`` loop looks for a shutdown request.

The standard library's default (0.5 s) makes every ``shutdown()`` wait up to half a
second: with a server or two per test, about a second of idle wall time per test of the
runner, scorer and download suites.
"""
