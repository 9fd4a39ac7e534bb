"""`jit-arguments`: what `jax.jit` cannot accept, seen in the code.

- a string literal passed for a traced parameter of a jitted function -> jit-argument-invalid-type;
- a list / dict / set literal passed for a static parameter -> static-arg-unhashable-container;
- `@jax.jit` on a method (its `self` is not an array) -> jit-method-self;
- `static_argnums` beyond the positional parameters -> static-argnums-out-of-range.
Quiet on static strings, tuples for static parameters, `@staticmethod`s, functions with `*args`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model, TracedFunction, Transform
from jaxerr_ls.rules.base import Finding, finding

INVALID = "jit-argument-invalid-type"
UNHASHABLE = "static-arg-unhashable-container"
METHOD = "jit-method-self"
ARGNUMS = "static-argnums-out-of-range"
ARGNAMES = "static-argnames-invalid"
_JITS = frozenset({"jax.jit", "jax.pmap"})
_CONTAINERS = {"list": "list", "dict": "dict", "set": "set"}


class _JitArguments:
    id = "jit-arguments"
    entries: tuple[str, ...] = (INVALID, UNHASHABLE, METHOD, ARGNUMS, ARGNAMES)

    def check(self, model: Model) -> Iterable[Finding]:
        for function in model.functions:
            jits = [t for t in function.transforms if t.api in _JITS]
            if not jits or isinstance(function.node, ast.Lambda):
                continue
            yield from self._call_sites(model, function)
            for transform in jits:
                yield from self._method(model, function, transform)
                yield from self._argnums(model, function, transform)
                yield from self._argnames(model, function, transform)

    def _call_sites(self, model: Model, function: TracedFunction) -> Iterable[Finding]:
        for site in function.call_sites:
            for argument in site.arguments:
                param = function.param(argument.param) if argument.param else None
                if param is None:
                    continue
                if param.traced and argument.kind == "str":
                    message = (
                        f"TypeError: `{function.name}` is jitted and `{param.name}` is not static, "
                        f"so the string {argument.text} cannot be traced as an array; mark "
                        f"`{param.name}` static."
                    )
                    fields = {"name": param.name, "type": "<class 'str'>", "fun": function.name}
                    yield finding(model, argument.node, INVALID, message, self.id, fields)
                elif (
                    param.static
                    and argument.kind in _CONTAINERS
                    and _declared_static(function, param.name)
                ):
                    kind = _CONTAINERS[argument.kind]
                    message = (
                        f"ValueError: `{param.name}` is a static argument of `{function.name}`, so "
                        f"it must be hashable, but a {kind} is not; pass a tuple."
                    )
                    fields = {
                        "type": f"<class '{kind}'>",
                        "value": argument.text,
                        "name": param.name,
                    }
                    yield finding(model, argument.node, UNHASHABLE, message, self.id, fields)

    def _method(
        self, model: Model, function: TracedFunction, transform: Transform
    ) -> Iterable[Finding]:
        node = function.node
        if not function.is_method or transform.form == "call":
            return
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        first = [*node.args.posonlyargs, *node.args.args][0].arg
        decorators = {model.qualify(d) or ast.unparse(d) for d in node.decorator_list}
        if "classmethod" in decorators or "property" in decorators:
            return
        static_nums = transform.static_argnums or ()
        static_names = transform.static_argnames or ()
        if 0 in static_nums or first in static_names or not transform.static_known:
            return
        message = (
            f"TypeError: `@jax.jit` on the method `{function.name}` traces `{first}` as an array "
            f"argument, and a `{model.scopes.enclosing_class(node).name}` object is not one."  # type: ignore[union-attr]
        )
        fields = {"name": first}
        yield finding(model, transform.node, METHOD, message, self.id, fields)

    def _argnums(
        self, model: Model, function: TracedFunction, transform: Transform
    ) -> Iterable[Finding]:
        node = function.node
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        if node.args.vararg is not None:
            return
        count = len(node.args.posonlyargs) + len(node.args.args)
        nums = transform.static_argnums or ()
        bad = [n for n in nums if n >= count or n < -count]
        if not bad:
            return
        shown = nums[0] if len(nums) == 1 else tuple(nums)
        message = (
            f"ValueError: `static_argnums={shown}` names a position that `{function.name}` does "
            f"not have: it takes {count} positional argument{'s' if count != 1 else ''}."
        )
        fields = {"argnums": str(shown), "count": str(count)}
        yield finding(model, transform.node, ARGNUMS, message, self.id, fields)

    def _argnames(
        self, model: Model, function: TracedFunction, transform: Transform
    ) -> Iterable[Finding]:
        node = function.node
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        if node.args.kwarg is not None:
            return
        every = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        bad = [n for n in transform.static_argnames or () if n not in every]
        if not bad:
            return
        shown = ", ".join(f"'{n}'" for n in bad)
        message = (
            f"ValueError: `static_argnames` names {shown}, but `{function.name}` has no such "
            f"parameter (it has {', '.join(sorted(every)) or 'none'})."
        )
        fields = {"argnames": "{" + shown + "}"}
        yield finding(model, transform.node, ARGNAMES, message, self.id, fields)


def _declared_static(function: TracedFunction, name: str) -> bool:
    """Static through static_argnums/argnames of a jit (not merely bound by partial)."""
    param = function.param(name)
    for transform in function.transforms:
        if name in (transform.static_argnames or ()):
            return True
        if param is not None and param.index in (transform.static_argnums or ()):
            return True
    return False


RULE = _JitArguments()
