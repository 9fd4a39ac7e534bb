"""`refs`: Ref mistakes visible in the code.

- an eager `jax.shard_map(body, ...)` (not under `jax.jit`) whose body creates a `jax.Ref`
  (`jax.new_ref`) and returns from it -> eager-shard-map-ref;
- `plgpu.remote_ref(x_ref[...])`: a loaded value where Mosaic GPU wants the Ref itself ->
  pallas-mosaic-gpu-ref-not-reference.
Quiet when the shard_map is jitted (decorator, `jax.jit(shard_map(...))`, called in a jitted
function) and when `remote_ref` gets the Ref. A shard_map built inside a function is eager when
that function runs eagerly for certain: it is not traced, not decorated, and only ever called
directly (`main()`), from code that is eager itself; and the shard_map is called there.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from jaxerr_ls.analysis import Model
from jaxerr_ls.rules.base import Finding, finding

EAGER = "eager-shard-map-ref"
REMOTE = "pallas-mosaic-gpu-ref-not-reference"
_NEW_REF = frozenset({"jax.new_ref", "jax.experimental.new_ref", "jax.ref.new_ref"})


class _Refs:
    id = "refs"
    entries: tuple[str, ...] = (EAGER, REMOTE)

    def check(self, model: Model) -> Iterable[Finding]:
        yield from self._eager_shard_map(model)
        for node in model.calls:
            if not isinstance(node, ast.Call) or not node.args:
                continue
            qualified = model.qualify(node.func) or ""
            if not qualified.endswith(".remote_ref") or "mosaic_gpu" not in qualified:
                continue
            first = node.args[0]
            if (
                isinstance(first, ast.Subscript)
                and isinstance(first.slice, ast.Constant)
                and first.slice.value is Ellipsis
            ):
                message = (
                    f"ValueError: `remote_ref` needs the Ref itself, but "
                    f"`{model.text(first)}` loads its value; pass `{model.text(first.value)}`."
                )
                yield finding(model, first, REMOTE, message, self.id)

    def _eager_shard_map(self, model: Model) -> Iterable[Finding]:
        for function in model.functions:
            maps = [t for t in function.transforms if t.api == "jax.shard_map"]
            if not maps or function.enclosing is not None:
                continue
            creates = [
                n
                for n in model.body(function)
                if isinstance(n, ast.Call) and (model.qualify(n.func) or "") in _NEW_REF
            ]
            if not creates:
                continue
            for transform in maps:
                call = transform.node
                if transform.form != "call" or not isinstance(call, ast.Call):
                    continue
                if self._jitted(model, call):
                    continue
                message = (
                    f"ValueError: `{function.name}` creates a `jax.Ref` inside an eager "
                    f"`shard_map`, which cannot return one; wrap the shard_map in `jax.jit`."
                )
                # Where JAX raises: the statement creating the Ref, in the body.
                statement = self._statement(model, creates[0])
                yield finding(model, statement, EAGER, message, self.id)

    def _statement(self, model: Model, node: ast.AST) -> ast.AST:
        current = node
        while not isinstance(current, ast.stmt):
            parent = model.parent(current)
            if parent is None:
                return node
            current = parent
        return current

    def _jitted(self, model: Model, call: ast.Call) -> bool:
        current: ast.AST | None = model.parent(call)
        inside: ast.FunctionDef | None = None
        while current is not None:
            if isinstance(current, ast.Call) and model.qualify(current.func) == "jax.jit":
                return True
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                # inside a function: eager only when the function surely runs eagerly
                if not isinstance(current, ast.FunctionDef) or not _eager(model, current, 0):
                    return True
                inside = inside or current  # the innermost: where the shard_map is made
            current = model.parent(current)
        if inside is not None and not _called_in(model, call, inside):
            return True
        # `f = jax.shard_map(...)` then `jax.jit(f)` somewhere in the file.
        parent = model.parent(call)
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
            target = parent.targets[0]
            if isinstance(target, ast.Name):
                for node in model.calls:
                    if (
                        isinstance(node, ast.Call)
                        and model.qualify(node.func) == "jax.jit"
                        and any(isinstance(a, ast.Name) and a.id == target.id for a in node.args)
                    ):
                        return True
        return False


def _eager(model: Model, node: ast.FunctionDef, depth: int) -> bool:
    """`node` runs eagerly whenever it runs: not traced, not decorated, not a method, and every
    use of its name is a direct call from eager code (at least one)."""
    if depth > 4 or node.decorator_list or model.function(node) is not None:
        return False
    if model.scopes.enclosing_class(node) is not None:
        return False
    uses = [
        n
        for n in model.nodes
        if isinstance(n, ast.Name) and n.id == node.name and model.scopes.lookup(n.id, n) is node
    ]
    calls = [u for u in uses if _called(model, u)]
    if not calls or len(calls) != len(uses):
        return False
    for use in calls:
        current = model.parent(use)
        while current is not None:
            if isinstance(current, ast.Lambda | ast.AsyncFunctionDef):
                return False
            if isinstance(current, ast.FunctionDef):
                if current is node or not _eager(model, current, depth + 1):
                    return False
                break
            current = model.parent(current)
    return True


def _called(model: Model, name: ast.Name) -> bool:
    parent = model.parent(name)
    return isinstance(parent, ast.Call) and parent.func is name


def _called_in(model: Model, call: ast.Call, scope: ast.FunctionDef) -> bool:
    """The shard_map made by `call` is called in `scope`: `shard_map(...)(x)`, or
    `f = shard_map(...)` then `f(x)` later in it."""
    parent = model.parent(call)
    if isinstance(parent, ast.Call) and parent.func is call:
        return True
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1):
        return False
    target = parent.targets[0]
    if not isinstance(target, ast.Name):
        return False
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == target.id
        and n.lineno > parent.lineno
        and _function_of(model, n) is scope
        for n in model.calls_by_name.get(target.id, [])
    )


def _function_of(model: Model, node: ast.AST) -> ast.AST | None:
    current = model.parent(node)
    while current is not None and not isinstance(
        current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
    ):
        current = model.parent(current)
    return current


RULE = _Refs()
