"""Docstring examples of a module, found also when mutmut has wrapped its functions.

``doctest.testmod`` keeps only functions whose globals are the module's. Under mutmut
(scripts/mutation.py) each function is a trampoline defined in mutmut's own module, so
testmod finds no example there and a mutant that an example would catch survives.
:func:`examples` collects the examples by each object's ``__module__`` (which the
trampoline keeps, with the docstring) and skips mutmut's copies (``x_name__mutmut_N``).
"""

from __future__ import annotations

import doctest
import importlib
import inspect


def examples(name: str) -> list[doctest.DocTest]:
    """The doctests of module ``name``'s functions, classes and their methods."""
    module = importlib.import_module(name)
    parser = doctest.DocTestParser()
    tests: list[doctest.DocTest] = []
    for attr, obj in sorted(vars(module).items()):
        if "mutmut" in attr or not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if getattr(obj, "__module__", None) != name:
            continue
        members = [(attr, obj)]
        if inspect.isclass(obj):
            members += [(f"{attr}.{k}", v) for k, v in sorted(vars(obj).items())
                        if inspect.isfunction(v) and "mutmut" not in k]
        for label, member in members:
            doc = inspect.getdoc(member) or ""
            test = parser.get_doctest(doc, dict(vars(module)), f"{name}.{label}", name, 0)
            if test.examples:
                tests.append(test)
    return tests


def failures(name: str) -> int:
    """How many examples of module ``name`` fail."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in examples(name):
        runner.run(test)
    return runner.summarize(verbose=False).failed
