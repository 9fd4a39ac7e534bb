"""Abstract values: what the code makes known about a value, and its spec for the oracle.

`Arr` an array of known shape and dtype (`weak` as JAX's weak types; `assumed`: the dtype was
not stated, e.g. `assert x.shape == (3, 4)` or jaxtyping's `Float`, so only shape errors count);
`Py` a Python literal; `Seq` a tuple or list, `Dict` a dict with string keys (pytrees of these);
`DType` a dtype named in the code; `Func` a function of this file, perhaps under `jit`, `vmap`,
`grad`. None: not known (the analysis then asks nothing).
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from jaxerr_ls.analysis.build import Model

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(frozen=True)
class Arr:
    shape: tuple[int, ...]
    dtype: str
    weak: bool = False
    assumed: bool = False  # dtype not stated: float32 stands in, only shape errors are kept
    numpy: bool = False  # a NumPy array: NumPy's rules (not JAX's) apply between NumPy arrays
    tracer: bool = False  # surely a tracer (made under jit, vmap, a loop or a branch)

    def text(self) -> str:
        return f"{self.dtype}[{','.join(str(d) for d in self.shape)}]"


@dataclass(frozen=True)
class Py:
    value: int | float | complex | bool | str | None


@dataclass(frozen=True)
class Seq:
    kind: str  # "tuple" or "list"
    items: tuple[Val, ...]


@dataclass(frozen=True)
class Dict:
    items: tuple[tuple[str, Val], ...]

    def get(self, key: str) -> Val:
        return next((v for k, v in self.items if k == key), None)


@dataclass(frozen=True)
class DType:
    name: str  # "float32"; or a Python type the code passes as a dtype: "int", "float"


@dataclass(frozen=True)
class JaxFn:
    """A function of JAX itself passed as a value (`jax.jit(jnp.sum)`), perhaps transformed."""

    name: str
    wraps: tuple[Wrap, ...] = ()


@dataclass(frozen=True)
class Slice:
    parts: tuple[Val, Val, Val]


@dataclass(frozen=True)
class Ellipsis_:
    pass


@dataclass(frozen=True)
class Wrap:
    """A transform applied to a function: api "jit" "vmap" "grad" "value_and_grad"."""

    api: str
    options: tuple[tuple[str, Any], ...] = ()

    def option(self, name: str, default: Any = None) -> Any:
        return next((v for k, v in self.options if k == name), default)


@dataclass(frozen=True)
class Func:
    node: FunctionNode
    wraps: tuple[Wrap, ...] = ()  # innermost first
    # The frame it was defined in (a closure reads its names as they are when it runs);
    # None at module level, where names are read through the module's single bindings.
    closure: Any = field(default=None, compare=False, hash=False)


Val = Union[Arr, Py, Seq, Dict, DType, Slice, Ellipsis_, Func, JaxFn, None]  # noqa: UP007 - a runtime alias


def spec(value: Val) -> dict[str, Any] | None:
    """The oracle's spec of a value, None when any part is unknown."""
    if isinstance(value, Arr):
        return {"a": [list(value.shape), value.dtype, value.weak]}
    if isinstance(value, Py):
        if isinstance(value.value, complex):
            return {"c": [value.value.real, value.value.imag]}
        return {"py": value.value}
    if isinstance(value, Seq):
        items = [spec(v) for v in value.items]
        if any(i is None for i in items):
            return None
        return {"t" if value.kind == "tuple" else "l": items}
    if isinstance(value, Dict):
        pairs = [[k, spec(v)] for k, v in value.items]
        if any(p[1] is None for p in pairs):
            return None
        return {"d": pairs}
    if isinstance(value, DType):
        return {"ty": value.name} if value.name in PYTHON_TYPES else {"dt": value.name}
    if isinstance(value, Slice):
        parts = [spec(p) for p in value.parts]
        return None if any(p is None for p in parts) else {"sl": parts}
    if isinstance(value, Ellipsis_):
        return {"el": 1}
    return None


def from_spec(data: Any, assumed: bool = False) -> Val:
    """A value read back from the oracle's answer (None when it is not a spec)."""
    try:
        return _from_spec(data, assumed)
    except (TypeError, ValueError, KeyError):
        return None


def _from_spec(data: Any, assumed: bool) -> Val:
    if not isinstance(data, dict):
        return None
    if "a" in data:
        shape, dtype, weak = data["a"]
        return Arr(tuple(int(d) for d in shape), str(dtype), bool(weak), assumed)
    if "py" in data:
        return Py(data["py"])
    if "t" in data or "l" in data:
        items = data.get("t", data.get("l")) or []
        return Seq("tuple" if "t" in data else "list", tuple(_from_spec(i, assumed) for i in items))
    if "d" in data:
        return Dict(tuple((str(k), _from_spec(v, assumed)) for k, v in data["d"]))
    return None


def assumed(value: Val) -> bool:
    """Whether any array in the value has a dtype the code did not state."""
    if isinstance(value, Arr):
        return value.assumed
    if isinstance(value, Seq):
        return any(assumed(v) for v in value.items)
    if isinstance(value, Dict):
        return any(assumed(v) for _, v in value.items)
    if isinstance(value, Slice):
        return any(assumed(v) for v in value.parts)
    return False


def jax_array(value: Val) -> bool:
    """Whether the value holds a JAX array (not only NumPy arrays and Python values)."""
    if isinstance(value, Arr):
        return not value.numpy
    if isinstance(value, Seq):
        return any(jax_array(v) for v in value.items)
    if isinstance(value, Dict):
        return any(jax_array(v) for _, v in value.items)
    return False


def has_array(value: Val) -> bool:
    if isinstance(value, Arr):
        return True
    if isinstance(value, Seq):
        return any(has_array(v) for v in value.items)
    if isinstance(value, Dict):
        return any(has_array(v) for _, v in value.items)
    if isinstance(value, Slice):
        return any(has_array(v) for v in value.parts)
    return False


JAX_MODULES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.nn.",
    "jax.random.",
    "jax.scipy.",
    "jax.image.",
    "jax.ops.",
)
PYTHON_TYPES = frozenset({"int", "float", "bool", "complex"})


def traced(value: Val, tracer: bool = True) -> Val:
    """The value as `jit` passes it to the body: arrays (Python numbers become weakly typed
    scalars), tracers when `tracer`."""
    if isinstance(value, Py):
        if isinstance(value.value, bool):
            return Arr((), "bool", tracer=tracer)
        if isinstance(value.value, int):
            return Arr((), "int32", weak=True, tracer=tracer)
        if isinstance(value.value, float):
            return Arr((), "float32", weak=True, tracer=tracer)
        return None
    if isinstance(value, Seq):
        return Seq(value.kind, tuple(traced(v, tracer) for v in value.items))
    if isinstance(value, Dict):
        return Dict(tuple((k, traced(v, tracer)) for k, v in value.items))
    if isinstance(value, Arr):
        return Arr(value.shape, value.dtype, value.weak, value.assumed, tracer=tracer)
    return None


def mark(value: Val, tracer: bool, numpy: bool = False) -> Val:
    """The arrays in the value marked tracers (made in a trace) or NumPy arrays."""
    if isinstance(value, Arr):
        return Arr(value.shape, value.dtype, value.weak, value.assumed, numpy, tracer)
    if isinstance(value, Seq):
        return Seq(value.kind, tuple(mark(v, tracer, numpy) for v in value.items))
    if isinstance(value, Dict):
        return Dict(tuple((k, mark(v, tracer, numpy)) for k, v in value.items))
    return value


def concrete_array(value: Val) -> bool:
    """Whether the value holds an array that is not surely a tracer."""
    if isinstance(value, Arr):
        return not value.tracer
    if isinstance(value, Seq):
        return any(concrete_array(v) for v in value.items)
    if isinstance(value, Dict):
        return any(concrete_array(v) for _, v in value.items)
    if isinstance(value, Slice):
        return any(concrete_array(v) for v in value.parts)
    return False


def key_text(values: dict[str, Val], traced: bool = False) -> str:
    """A text that differs for arguments of different values (a call context's key)."""
    return json.dumps(
        {
            "": traced,
            **{k: spec(v) if not isinstance(v, Func) else id(v.node) for k, v in values.items()},
        },
        sort_keys=True,
    )


def annotation_value(model: Model, node: ast.expr | None) -> Val:
    """jaxtyping's `Float[Array, "3 4"]`: an array of those sizes (named sizes: not known)."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.slice, ast.Tuple):
        return None
    kind = (model.qualify(node.value) or "").rsplit(".", 1)
    if len(kind) != 2 or not kind[0].startswith("jaxtyping"):
        return None
    dtype = {"Float": "float32", "Float32": "float32", "Int": "int32", "Int32": "int32"}.get(
        kind[1]
    )
    if kind[1] == "Bool":
        dtype = "bool"
    elements = node.slice.elts
    if dtype is None or len(elements) != 2:
        return None
    dims = elements[1]
    if not isinstance(dims, ast.Constant) or not isinstance(dims.value, str):
        return None
    parts = dims.value.split()
    if not all(p.isdigit() for p in parts):
        return None
    stated = kind[1] in ("Float32", "Int32", "Bool")
    return Arr(tuple(int(p) for p in parts), dtype, False, not stated)
