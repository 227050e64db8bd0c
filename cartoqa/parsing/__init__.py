"""Turn a model's free-text response into the structured answer of its task.

Every parser returns :class:`Parsed` (the answer, shaped like the item's ``answer``)
or :class:`Invalid` (with the reason); none raises on any text and none guesses.

>>> from cartoqa.parsing import parse_response
>>> parse_response({"task": "mfs", "request": "choice"}, "**Answer: C**").value
{'letter': 'C'}
"""

from cartoqa.parsing.answer_text import answer_as_text, bulleted, format_number
from cartoqa.parsing.choice import parse_choice
from cartoqa.parsing.dispatch import parse_response, parsers
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
from cartoqa.parsing.yesno import parse_yes_no

__all__ = [
    "ACTIONS",
    "FEATURE_TYPE_SYNONYMS",
    "Invalid",
    "ParseResult",
    "Parsed",
    "answer_as_text",
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
    "parse_response",
    "parse_roads",
    "parse_route",
    "parse_yes_no",
    "parsers",
    "type_key",
]
