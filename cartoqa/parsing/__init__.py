"""Turn a model's free-text response into the structured answer of its task.

Every parser returns :class:`Parsed` (the answer, shaped like the item's ``answer``)
or :class:`Invalid` (with the reason); none raises on any text and none guesses.

Which parser reads which task's answers is declared by the tasks (``RequestSpec.parse``);
:func:`cartoqa.declarations.parse_response` picks it for an item.

>>> from cartoqa.parsing import parse_choice
>>> parse_choice("**Answer: C**").value
{'letter': 'C'}
"""

from cartoqa.parsing.choice import parse_choice
from cartoqa.parsing.feature_types import (
    FEATURE_TYPE_SYNONYMS,
    canonical_type,
    cartomapqa_name,
)
from cartoqa.parsing.lists import parse_names, parse_roads
from cartoqa.parsing.multi import parse_multi, type_key
from cartoqa.parsing.numbers import convert_length, parse_count, parse_length
from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.route import ACTIONS, canonical_action, canonical_marker, parse_route
from cartoqa.parsing.writing import bulleted, format_number
from cartoqa.parsing.yesno import parse_yes_no

__all__ = [
    "ACTIONS",
    "FEATURE_TYPE_SYNONYMS",
    "Invalid",
    "ParseResult",
    "Parsed",
    "bulleted",
    "canonical_action",
    "canonical_marker",
    "canonical_type",
    "cartomapqa_name",
    "convert_length",
    "format_number",
    "parse_choice",
    "parse_count",
    "parse_length",
    "parse_multi",
    "parse_names",
    "parse_roads",
    "parse_route",
    "parse_yes_no",
    "type_key",
]
