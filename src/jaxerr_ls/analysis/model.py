"""The tracing model's data: immutable records the rules (and the fixes) read. No behaviour here."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda

# How a parameter is used in its function's body (`Param.uses`).
USE_SHAPE = (
    "shape"  # a shape or size: jnp.zeros(n), x.reshape(n, -1), jnp.arange(n), one_hot(.., n)
)
USE_AXIS = "axis"  # axis=n
USE_RANGE = "range"  # a count in range(n)
USE_BRANCH = "branch"  # in the test of an if / while / assert / conditional expression
USE_INDEX = "index"  # a slice bound: x[:n], x[n:m]


@dataclass(frozen=True)
class Param:
    """One parameter of a traced function."""

    name: str
    index: int | None  # position among the positional parameters; None for keyword-only / * / **
    traced: bool  # a tracer when the function is traced (not static, not bound, no default)
    static: bool  # named in static_argnums / static_argnames (or bound by functools.partial)
    has_default: bool
    uses: frozenset[str] = frozenset()  # USE_* in the body (directly or through derived names)


@dataclass(frozen=True)
class Argument:
    """One argument expression at a call site, classified."""

    kind: (
        str  # "int" "float" "str" "bool" "none" "list" "tuple" "dict" "set" "array" "name" "other"
    )
    text: str  # the source text of the expression
    node: ast.expr
    position: int | None  # positional index, None for a keyword argument
    keyword: str | None
    param: str | None  # the parameter it binds, when the signature says so


@dataclass(frozen=True)
class CallSite:
    """A call of a traced function in this file (through its name or a jitted alias)."""

    node: ast.Call
    line: int  # 0-based
    column: int  # 0-based code points
    arguments: tuple[Argument, ...]
    through: str  # the callee text as written: "f", "step_jit", "self.apply"

    def argument_for(self, param: str) -> Argument | None:
        return next((a for a in self.arguments if a.param == param), None)


@dataclass(frozen=True)
class Transform:
    """One way the function gets traced."""

    api: str  # qualified: "jax.jit", "jax.lax.scan", "jax.grad", "called-from" (by a traced caller)
    node: ast.AST  # the decorator or the call that applies it
    form: str  # "decorator", "call", "partial-decorator", "caller"
    static_argnums: tuple[int, ...] | None = None  # None: not given; () when given and empty
    static_argnames: tuple[str, ...] | None = None
    static_known: bool = True  # False when static_arg* is not a literal we can read


@dataclass(frozen=True)
class TracedFunction:
    """A function whose body JAX traces, and what in it is traced."""

    node: FunctionNode
    name: str  # "<lambda>" for a lambda
    qualname: str  # "Class.method", "outer.<locals>.body"
    params: tuple[Param, ...]
    transforms: tuple[Transform, ...]
    abstract: bool  # values unknown while tracing (jit, vmap, scan...); False under grad alone
    is_method: bool  # defined in a class body (first parameter is `self` / `cls`)
    pallas_kernel: bool  # its parameters are Refs, not arrays
    enclosing: TracedFunction | None  # a traced function it is nested in (closure)
    traced_names: Mapping[str, frozenset[str]] = field(
        default_factory=lambda: MappingProxyType({})
    )  # local name -> the traced parameters it derives from (empty: traced, origin not a param)
    call_sites: tuple[CallSite, ...] = ()

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    @property
    def transform_apis(self) -> frozenset[str]:
        return frozenset(t.api for t in self.transforms)
