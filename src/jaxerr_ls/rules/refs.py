"""`refs`: Ref mistakes visible in the code.

- an eager `jax.shard_map(body, ...)` (not under `jax.jit`) whose body creates a `jax.Ref`
  (`jax.new_ref`) and returns from it -> eager-shard-map-ref;
- `plgpu.remote_ref(x_ref[...])`: a loaded value where Mosaic GPU wants the Ref itself ->
  pallas-mosaic-gpu-ref-not-reference.
Quiet when the shard_map is jitted (decorator, `jax.jit(shard_map(...))`, called in a jitted
function) and when `remote_ref` gets the Ref.
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
        for node in ast.walk(model.tree):
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
        while current is not None:
            if isinstance(current, ast.Call) and model.qualify(current.func) == "jax.jit":
                return True
            if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                return True  # inside a function: whether it runs under jit is not known here
            current = model.parent(current)
        # `f = jax.shard_map(...)` then `jax.jit(f)` somewhere in the file.
        parent = model.parent(call)
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
            target = parent.targets[0]
            if isinstance(target, ast.Name):
                for node in ast.walk(model.tree):
                    if (
                        isinstance(node, ast.Call)
                        and model.qualify(node.func) == "jax.jit"
                        and any(isinstance(a, ast.Name) and a.id == target.id for a in node.args)
                    ):
                        return True
        return False


RULE = _Refs()
