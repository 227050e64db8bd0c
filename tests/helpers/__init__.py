"""Reusable test helpers (fixture builders) shared by several test areas."""
