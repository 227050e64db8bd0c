"""The declared tasks: the ``SPEC`` of each module that :data:`~.suites.TASK_MODULES` names.

Generic code (parsing, scoring, the dataset schema, card and checks, the exports) asks
here for the declarations when it runs, never at import time, so that it does not
depend on the task modules (which import the rendering stack) when it is imported.

>>> names = [spec.name for spec in task_specs()]
>>> names == [n for n in TASK_MODULES if n in names] and {"mml", "mapiq_rv"} <= set(names)
True
>>> {"cartomapqa", "mapiq", "mapwise", "frieda"} <= {spec.suite for spec in task_specs()}
True
>>> request_spec("stmf", "count")[1].metrics
('rmse', 'mae', 'r2', 'accuracy')
"""

from __future__ import annotations

from functools import cache
from typing import Any

from cartoqa.declarations.prompts import prompt, prompt_path
from cartoqa.declarations.spec import RequestSpec, TaskSpec
from cartoqa.declarations.suites import (
    TASK_MODULES,
    TaskNotInstalledError,
    import_task_module,
    load_task,
    suite_of,
)


def _declared(name: str, module_path: str) -> TaskSpec | None:
    try:
        module = import_task_module(name, module_path)
    except TaskNotInstalledError:
        return None  # a task left out of this installation
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, TaskSpec):
        raise TypeError(f"task module {module_path} declares no SPEC = TaskSpec(...)")
    return spec


def sample_item(spec: TaskSpec, request: RequestSpec) -> dict[str, Any]:
    """Return the sample item of a request: what its self-checks parse against.

    Parameters
    ----------
    spec : TaskSpec
        The task.
    request : RequestSpec
        One of its requests.

    Returns
    -------
    dict
        ``task``, ``request``, ``answer`` (the declared ``sample_answer``), ``options``
        and ``strata`` (the declared samples).
    """
    return {"task": spec.name, "request": request.name, "answer": request.sample_answer,
            "options": spec.sample_options, "strata": dict(spec.sample_strata)}


def check_prompts(spec: TaskSpec) -> None:
    """Check each request's prompt: the file exists, fills, and its example line parses.

    Parameters
    ----------
    spec : TaskSpec
        A task's declaration.

    Raises
    ------
    ValueError
        Naming the task, the request and the template, when the template file is
        missing, a placeholder has no value in ``sample_prompt``, or the filled
        prompt's last line (the example answer line) does not parse to a valid answer.
    """
    for request in spec.requests:
        if not request.prompt:
            continue
        where = f"task {spec.name!r} request {request.name!r}: prompt {request.prompt!r}"
        path = prompt_path(request.prompt)
        if not path.is_file():
            raise ValueError(f"{where}: no template file {path}")
        try:
            text = prompt(request.prompt, **request.sample_prompt)
        except (KeyError, ValueError) as exc:
            raise ValueError(f"{where}: sample_prompt does not fill it ({exc})") from None
        example = text.rstrip().rsplit("\n", 1)[-1]
        if request.example_elided:
            continue
        if not request.parse(sample_item(spec, request), example).valid:
            raise ValueError(f"{where}: its example answer line {example!r} does not parse")


@cache
def _specs(registered: tuple[tuple[str, str], ...]) -> tuple[TaskSpec, ...]:
    specs = []
    for name, module_path in registered:
        spec = _declared(name, module_path)
        if spec is None:
            continue
        if spec.name != name:
            raise ValueError(f"task module {module_path} declares task {spec.name!r}, "
                             f"but TASK_MODULES registers it as {name!r}")
        suite = suite_of(name)  # None: registered in TASK_MODULES alone (tests)
        if suite is not None and spec.suite != suite:
            raise ValueError(f"task {name!r} declares suite {spec.suite!r}, but "
                             f"cartoqa.declarations.suites.SUITES registers it under {suite!r}")
        check_prompts(spec)
        specs.append(spec)
    return tuple(specs)


def task_specs() -> tuple[TaskSpec, ...]:
    """Return the declarations of the registered tasks, in :data:`TASK_MODULES` order.

    A task whose module is not installed is left out. The result is cached for the
    current contents of :data:`TASK_MODULES` (registering a task there is seen at once).

    Returns
    -------
    tuple of TaskSpec
        One per available task.

    Raises
    ------
    TypeError, ValueError
        When a registered module declares no ``SPEC`` or one with another name.
    """
    return _specs(tuple(TASK_MODULES.items()))


def task_spec(name: str) -> TaskSpec | None:
    """Return the declaration of a task, or ``None`` for an unknown task.

    Parameters
    ----------
    name : str
        A task name.

    Returns
    -------
    TaskSpec or None
        Its declaration (only its own module is imported: a build's card does not
        import every suite).
    """
    module_path = TASK_MODULES.get(name)
    if module_path is None:
        return None
    specs = _specs(((name, module_path),))
    return specs[0] if specs else None


def request_spec(task: str, request: str) -> tuple[TaskSpec, RequestSpec] | None:
    """Return the declarations of a task and one of its requests, if both are declared.

    Parameters
    ----------
    task, request : str
        An item's ``task`` and ``request``.

    Returns
    -------
    tuple of (TaskSpec, RequestSpec) or None
        ``None`` when the task or the request is unknown.
    """
    spec = task_spec(task)
    if spec is None:
        return None
    req = spec.request(request)
    return None if req is None else (spec, req)


def load_spec(name: str) -> TaskSpec:
    """Return a task's declaration for a build (a user error when it is not available).

    Parameters
    ----------
    name : str
        A task name, as checked by :func:`cartoqa.declarations.suites.parse_tasks`.

    Returns
    -------
    TaskSpec
        Its declaration.

    Raises
    ------
    CartoqaError
        If the task is unknown or its module is not installed.
    """
    module = load_task(name)
    spec = task_spec(name)  # checked, and cached, like every declaration the registry reads
    if spec is None:
        raise TypeError(f"task module {module.__name__} declares no SPEC for task {name!r}")
    return spec
