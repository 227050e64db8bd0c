"""The declarations every other part of cartoqa reads: tasks, requests, suites, records.

The ground floor of the package (as lm-evaluation-harness keeps its registries in
``api/``, which never imports ``tasks/``): it imports only the parsing primitives, the
metrics and ``groundtruth``, and every other part imports it. ``spec`` (what a task and
a request declare), ``suites`` (the suite table, the one list of tasks), ``registry``
(the declared tasks, checked when they load), ``dispatch`` and ``answer_text`` (an
item's parser and reference answer, through its declaration), ``records`` (a scored
answer).
"""

from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.declarations.dispatch import parse_response, parsers
from cartoqa.declarations.records import ConnectivityChecker, Record
from cartoqa.declarations.registry import load_spec, request_spec, task_spec, task_specs
from cartoqa.declarations.spec import RequestSpec, TaskSpec, text_parser
from cartoqa.declarations.suites import (
    DEFAULT_TASKS,
    SUITES,
    TASK_MODULES,
    extract_tasks,
    load_task,
    parse_tasks,
    suite_of,
    suite_tasks,
)

__all__ = [
    "DEFAULT_TASKS", "SUITES", "TASK_MODULES", "ConnectivityChecker", "Record",
    "RequestSpec", "TaskSpec", "answer_as_text", "extract_tasks", "load_spec", "load_task",
    "parse_response", "parse_tasks", "parsers", "request_spec", "suite_of", "suite_tasks",
    "task_spec", "task_specs", "text_parser",
]
