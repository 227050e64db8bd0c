"""The FRIEDA build option (light: the command line reads it without the renderers)."""

from __future__ import annotations

#: The values of ``cartoqa build --suite frieda --frieda-setting``.
SETTINGS: tuple[str, ...] = ("direct", "contextual", "both")
#: ``--frieda-setting`` when not given: both, so that a report compares the settings.
DEFAULT_SETTING = "both"
#: Key of the option in the build's task options (``ctx.options``, the build key and
#: the manifest).
SETTING_OPTION = "frieda_setting"
