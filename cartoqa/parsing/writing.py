"""Write answers the way a model would: numbers without ``.0``, names as a bulleted list.

The tasks' reference answers (``RequestSpec.answer_text``) are written with these, so
that what the parsers read back is what they were given.
"""

from __future__ import annotations


def format_number(value: float) -> str:
    """Write a number as a model would: no ``.0`` on whole numbers.

    Parameters
    ----------
    value : float
        The number.

    Returns
    -------
    str
        ``"12"`` for 12.0, ``"12.5"`` for 12.5.

    Examples
    --------
    >>> format_number(12.0), format_number(12.5)
    ('12', '12.5')
    """
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def bulleted(names: list[str]) -> str:
    """Write names as a bulleted list, one per line.

    Parameters
    ----------
    names : list of str
        The names, in the order written.

    Returns
    -------
    str
        One ``- name`` line per name.

    Examples
    --------
    >>> print(bulleted(["A St", "B Rd"]))
    - A St
    - B Rd
    """
    return "\n".join(f"- {n}" for n in names)
