"""`api-history`: uses of JAX names the target release no longer has, has not added yet, or
deprecates, from the catalog's API history, with JAX's advice in the message; and calls giving a
JAX function a keyword the release does not take (the parameter history). The release is the
one given (`jaxerr-ls check --jax VERSION`), else the installed `jax`, else the newest catalogued.
"""

from __future__ import annotations

from collections.abc import Iterable

from jaxerr_ls.analysis import Model
from jaxerr_ls.catalog.model import KEYWORD_ENTRY
from jaxerr_ls.catalog.versions import installed_jax_version
from jaxerr_ls.rules.base import Finding, finding
from jaxerr_ls.upgrades.check import Problem, problems_in
from jaxerr_ls.upgrades.entries import DEPRECATED_API, NOT_YET_ADDED, REMOVED_API, REMOVED_MODULE
from jaxerr_ls.upgrades.history import load_history
from jaxerr_ls.upgrades.keyword_calls import keyword_problems
from jaxerr_ls.upgrades.keywords import describe_keyword, fields_of, load_parameter_history
from jaxerr_ls.upgrades.resolve import entry_for, fields_for
from jaxerr_ls.upgrades.uses import collect_uses

_RAISES = {
    "attribute": "AttributeError",
    "from-import": "ImportError",
    "import": "ModuleNotFoundError",
    "from-module": "ModuleNotFoundError",
}


def _exception(problem: Problem) -> str:
    if problem.verdict.status == "deprecated":
        return "DeprecationWarning"
    return _RAISES[problem.use.kind]


class ApiHistoryRule:
    id = "api-history"
    entries: tuple[str, ...] = (
        REMOVED_API,
        REMOVED_MODULE,
        NOT_YET_ADDED,
        DEPRECATED_API,
        KEYWORD_ENTRY,
    )

    def __init__(self, release: str | None = None) -> None:
        self.release = release  # None: the installed JAX, else the newest catalogued

    def for_release(self, release: str | None) -> ApiHistoryRule:
        return ApiHistoryRule(release)

    def check(self, model: Model) -> Iterable[Finding]:
        history = load_history()
        if not history.releases:
            return
        release = history.release_for(self.release or installed_jax_version())
        uses = collect_uses("\n".join(model.lines), model.tree)
        if uses is None:
            return
        for problem in problems_in(uses, history, release):
            line = problem.line
            text = model.lines[line] if line < len(model.lines) else ""
            end = problem.end_column if problem.end_line == line else len(text.rstrip())
            yield Finding(
                entry_for(problem.verdict),
                line,
                problem.column,
                line,
                max(end, problem.column),
                f"{_exception(problem)}: {problem.message}.",
                self.id,
                fields_for(problem.verdict, release),
            )
        parameters = load_parameter_history()
        for wrong in keyword_problems(model.tree, uses, parameters, release):
            title, _ = describe_keyword(wrong.facts)
            callee = wrong.callee.rsplit(".", 1)[-1]
            yield finding(
                model,
                wrong.node,
                KEYWORD_ENTRY,
                f"TypeError: {title}.",
                self.id,
                fields_of(wrong.facts, callee),
            )


RULE = ApiHistoryRule()
