"""The extractor: message templates, raise sites, API reach, the committed index."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from jaxerr_ls.catalog.load import load_index
from jaxerr_ls.extract import Extraction, extract, main
from jaxerr_ls.extract.index import error_id, title_of
from jaxerr_ls.extract.source import SourceError

ROOT = Path(__file__).resolve().parents[1]
INDEX = ROOT / "catalog" / "index" / "releases.json.gz"
WHEELS = ROOT / ".tools" / "wheels"
WHEEL = WHEELS / "jax-0.10.2-py3-none-any.whl"
# Raise sites whose message is literal-style in JAX 0.10.2 (counted with `ast` over the package).
JAX_0_10_2_SITES = 4733


def make_tree(root: Path, files: dict[str, str], version: str = "9.9.9") -> Path:
    """A fake `jax` package under `root`; paths are relative to `root/jax`."""
    package = root / "jax"
    all_files = {"version.py": f'_version = "{version}"\n', "__init__.py": "", **files}
    for relative, text in all_files.items():
        path = package / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def run(tmp_path: Path, files: dict[str, str]) -> Extraction:
    return extract(make_tree(tmp_path, files), jobs=1)


def templates(result: Extraction) -> dict[str, str]:
    """Template -> exception class."""
    return {e.message: e.exception for e in result.errors}


def one_site(result: Extraction, template: str) -> tuple[str, int, str]:
    (error,) = [e for e in result.errors if e.message == template]
    site = error.raised_at[0]
    return site.file, site.line, site.function


# -- messages -------------------------------------------------------------------------------


def test_each_message_form_becomes_a_template(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        {
            "_src/m.py": """
            def f(x, args, n, d):
                if n == 0:
                    raise ValueError("plain message")
                if n == 1:
                    raise ValueError(f"bad shape {x.shape} for {len(args)} args")
                if n == 2:
                    raise TypeError("expected {} got {name}".format(x.dtype, name=d["k"]))
                if n == 3:
                    raise TypeError("numbered {1} and {0.shape}".format(x, n))
                if n == 4:
                    raise ValueError("percent %s and %d%%" % (x, n))
                if n == 5:
                    raise ValueError("single %r" % x)
                if n == 6:
                    raise ValueError("keyed %(a)s" % {"a": x.size})
                if n == 7:
                    raise ValueError("left " + str(x) + " right")
                if n == 8:
                    raise ValueError("implicit "
                                     "concatenation")
                if n == 9:
                    raise ValueError(f"braces {{literal}} and {x!r:>10}")
                if n == 10:
                    raise ValueError("a dict {'k': 1} in text")
            """,
        },
    )
    found = templates(result)
    assert found["plain message"] == "ValueError"
    assert "bad shape {x.shape} for {len(args)} args" in found
    assert found["expected {x.dtype} got {d['k']}"] == "TypeError"
    assert "numbered {n} and {x.shape}" in found
    assert "percent {x} and {n}%" in found
    assert "single {x}" in found
    assert "keyed {x.size}" in found
    assert "left {str(x)} right" in found
    assert "implicit concatenation" in found
    assert "braces {{literal}} and {x}" in found
    assert "a dict {{'k': 1}} in text" in found
    assert not result.skipped


def test_message_assigned_to_a_variable_before_the_raise(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        {
            "_src/m.py": """
            MODULE_MSG = "module level message"

            def f(x, flag):
                msg = f"first {x}"
                raise ValueError(msg)

            def g(x):
                if x:
                    msg = "in the branch"
                    raise ValueError(msg)
                msg = "after the branch"
                raise TypeError(msg)

            def h(x):
                if x:
                    msg = "one"
                else:
                    msg = "other"
                raise ValueError(msg)

            def k():
                raise RuntimeError(MODULE_MSG)

            def fmt(n):
                msg = "count {} too big"
                raise ValueError(msg.format(n))
            """,
        },
    )
    found = templates(result)
    assert "first {x}" in found
    assert found["in the branch"] == "ValueError"
    assert found["after the branch"] == "TypeError"
    assert "module level message" in found
    assert "count {n} too big" in found
    # A message chosen in sibling branches: each branch's is a template of the raise.
    assert found["one"] == found["other"] == "ValueError"
    assert not result.skipped


def test_message_grown_or_chosen_on_several_paths(tmp_path: Path) -> None:
    """`msg += ...` under a test, `if`/`elif`/`else` choices: every message a run can raise
    (JAX's lax same-dtypes check, its strict promotion error), none that no run can."""
    result = run(
        tmp_path,
        {
            "_src/m.py": """
            def same(name, dtypes):
                msg = "lax.{} requires the same dtypes, got {}."
                if name in TIPS:
                    msg += f" (Tip: jnp.{name} promotes.)"
                raise TypeError(msg.format(name, dtypes))

            def promote(nodes):
                if strict:
                    msg = f"Input dtypes {nodes} have no path when strict."
                elif any(small):
                    msg = f"Input dtypes {nodes} have no path: 4-bit floats."
                else:
                    msg = f"Input dtypes {nodes} have no path."
                    msg += " Cast them."
                raise TypePromotionError(msg)

            def order(o):
                msg = f"Invalid order {o}."
                if o == "inf":
                    msg += " Use inf."
                elif o == "-inf":
                    msg += " Use -inf."
                raise ValueError(msg)

            def looped(items):
                for msg in items:
                    pass
                raise ValueError(msg)
            """,
        },
    )
    found = templates(result)
    assert found["lax.{name} requires the same dtypes, got {dtypes}."] == "TypeError"
    assert "lax.{name} requires the same dtypes, got {dtypes}. (Tip: jnp.{name} promotes.)" in found
    promotion = {t for t, cls in found.items() if cls == "TypePromotionError"}
    assert promotion == {
        "Input dtypes {nodes} have no path when strict.",
        "Input dtypes {nodes} have no path: 4-bit floats.",
        "Input dtypes {nodes} have no path. Cast them.",
    }
    # `elif` is exclusive of its `if`: never both tips.
    orders = {t for t in found if t.startswith("Invalid order")}
    assert orders == {
        "Invalid order {o}.",
        "Invalid order {o}. Use inf.",
        "Invalid order {o}. Use -inf.",
    }
    # A loop target is no message the source states.
    assert [s.reason for s in result.skipped] == [
        "message variable not assigned once from a literal"
    ]


def test_an_exception_built_in_a_variable_then_raised(tmp_path: Path) -> None:
    """Equinox's `exc = TreePathError(f"..."); exc.path = path; raise exc from e`: the class and
    message built in the variable, on each path; a variable a call of something else may hold
    stays unread."""
    result = run(
        tmp_path,
        {
            "_src/m.py": """
            def leaf(f, path):
                try:
                    return f()
                except TreePathError as e:
                    exc = TreePathError(f"Error at leaf with path {path + e.path}")
                    exc.path = path + e.path
                    raise exc from e
                except Exception as e:
                    exc = TreePathError(f"Error at leaf with path {path}")
                    raise exc from e

            def chosen(x):
                if x:
                    err = ValueError("Got one.")
                else:
                    err = TypeError("Got two.")
                raise err

            def made(x):
                err = make_error(x)
                raise err
            """,
        },
    )
    found = templates(result)
    assert found["Error at leaf with path {path}"] == "TreePathError"
    assert found["Error at leaf with path {path + e.path}"] == "TreePathError"
    assert (found["Got one."], found["Got two."]) == ("ValueError", "TypeError")
    assert len(found) == 4
    assert [s.reason for s in result.skipped] == [
        "raises an exception object or class without a message"
    ]


def test_an_exception_factory_gives_its_callers_its_class_and_message(tmp_path: Path) -> None:
    # jax2tf of 0.2-0.4 (`raise _xla_disabled_error("pad")`, jax#6763's paste) and
    # `core.escaped_tracer_error` called from another module.
    files = {
        "_src/core.py": """
        def escaped_tracer_error(tracer, detail=None):
            return UnexpectedTracerError(f"Encountered an unexpected tracer. {detail}")

        def not_a_factory(x):
            return len(x)
        """,
        "_src/conv.py": """
        from jax._src import core

        def _xla_disabled_error(primitive_name: str) -> Exception:
            return NotImplementedError(
                f"Call to {primitive_name} can only be converted through TFXLA, but "
                "XLA is disabled")

        def _pad(x, enable):
            if not enable:
                raise _xla_disabled_error("pad")
            raise core.escaped_tracer_error(x, x.detail)
        """,
    }
    tree = make_tree(tmp_path, files)
    read = templates(extract(tree, jobs=1, class_messages=True))
    disabled = "Call to {primitive_name} can only be converted through TFXLA, but XLA is disabled"
    assert read[disabled] == "NotImplementedError"
    assert read["Encountered an unexpected tracer. {detail}"] == "UnexpectedTracerError"
    # The factory's name is no exception class, its argument no message.
    assert "_xla_disabled_error" not in read.values() and "pad" not in read
    # The main index reads factories too (its releases' `leaked_tracer_error`, Pallas's
    # `_unsupported_lowering_error`): a class is never a factory's name.
    plain = templates(extract(tree, jobs=1))
    assert plain[disabled] == "NotImplementedError"
    assert "_xla_disabled_error" not in plain.values()


def test_a_message_helper_gives_its_callers_its_template(tmp_path: Path) -> None:
    # JAX 0.1.30's `concretization_err_msg(fun)` (jax/abstract_arrays.py) and 0.1.60's
    # `(fun, context=None)` (jax/core.py), raised as `raise TypeError(helper(...))`: read for
    # the older releases, through the helper's locals, its parameters as placeholders.
    files = {
        "abstract_arrays.py": """
        def concretization_err_msg(fun):
            fname = getattr(fun, "__name__", fun)
            msg = ("Abstract value passed to `{}`, which requires a concrete value. "
                   "Try `static_argnums`.")
            return msg.format(fname)

        def concretization_function_error(fun):
            def error(self, *args):
                raise TypeError(concretization_err_msg(fun))
            return error
        """,
        "core.py": """
        def context_err_msg(fun, context=None):
            fname = getattr(fun, "__name__", fun)
            if context is None:
                context = ("The function to be transformed can't be traced "
                           "at the required level of abstraction.")
            msg = "Value passed to `{}` must be concrete. {}"
            return msg.format(fname, context)

        def suffixed(name, suffix=" (see the docs)"):
            return f"no rule for {name}{suffix}"

        def branches(x):
            if x:
                return "one message here"
            return len(x)

        def f(fun, context, x):
            if x == 1:
                raise TypeError(context_err_msg(fun, context))
            if x == 2:
                raise ValueError(context_err_msg(fun))
            if x == 3:
                raise NotImplementedError(suffixed(x))
            if x == 4:
                raise NotImplementedError(suffixed(x, suffix=""))
            raise ValueError(branches(x))
        """,
    }
    tree = make_tree(tmp_path, files)
    read = templates(extract(tree, jobs=1, class_messages=True))
    first = (
        "Abstract value passed to `{fname}`, which requires a concrete value. Try `static_argnums`."
    )
    assert read[first] == "TypeError"
    # A parameter passed stays a placeholder; one left out is worded as its literal default.
    assert read["Value passed to `{fname}` must be concrete. {context}"] == "TypeError"
    worded = (
        "Value passed to `{fname}` must be concrete. The function to be transformed can't be"
        " traced at the required level of abstraction."
    )
    assert read[worded] == "ValueError"
    assert read["no rule for {name} (see the docs)"] == "NotImplementedError"
    assert read["no rule for {name}{suffix}"] == "NotImplementedError"
    # A function that returns something else on some path is no message helper.
    assert "one message here" not in read
    # The main index's extraction is unchanged.
    assert first not in templates(extract(tree, jobs=1))


def test_assert_messages_are_read_for_older_releases(tmp_path: Path) -> None:
    # JAX 0.1.x's `standard_abstract_eval`: `msg = (...)` then `assert ..., msg`.
    files = {
        "lax.py": """
        def standard_abstract_eval(least_specialized, remat):
            if least_specialized is ConcreteArray:
                msg = ("If you see this error, please let us know by opening an issue\\n"
                       "since we thought this was unreachable!")
                assert remat, msg
            assert len(remat) == 2, f"expected two, got {len(remat)}"
            assert False, "unreachable branch"
            assert remat
            assert remat, (remat, least_specialized)
            assert len(remat) == 3, f"{remat} != {least_specialized}"
        """,
    }
    tree = make_tree(tmp_path, files)
    result = extract(tree, jobs=1, class_messages=True)
    read = templates(result)
    unreachable = (
        "If you see this error, please let us know by opening an issue\n"
        "since we thought this was unreachable!"
    )
    assert read[unreachable] == "AssertionError"
    assert read["expected two, got {len(remat)}"] == "AssertionError"
    conditions = {e.message: e.raised_at[0].condition for e in result.errors}
    # The assert's failing test is its condition, under the `if` around it.
    assert conditions[unreachable] == "least_specialized is ConcreteArray and not remat"
    assert conditions["expected two, got {len(remat)}"] == "not (len(remat) == 2)"
    assert conditions["unreachable branch"] == ""
    # A bare assert, a tuple message and a dump of values (under 8 literal characters) give
    # no template.
    assert len(result.errors) == 3
    # The main index's extraction is unchanged.
    assert not extract(tree, jobs=1).errors


def test_a_bound_format_method_called_later(tmp_path: Path) -> None:
    # jax.grad's scalar check of 0.1-0.4: `msg = "...".format` then `raise TypeError(msg(...))`.
    files = {
        "api.py": """
        def _check_scalar(x, aval):
            msg = "Gradient only defined for scalar-output functions. Output {}.".format
            if x:
                raise TypeError(msg(f"was {x}"))
            if aval:
                raise TypeError(msg("had abstract value {}".format(aval)))
            raise TypeError(msg(x.shape))
        """,
    }
    tree = make_tree(tmp_path, files)
    found = templates(extract(tree, jobs=1, class_messages=True))
    head = "Gradient only defined for scalar-output functions. Output"
    assert found[f"{head} was {{x}}."] == "TypeError"
    assert f"{head} had abstract value {{aval}}." in found
    assert f"{head} {{x.shape}}." in found
    # Read for the older releases only: the main index was made without it.
    assert not extract(tree, jobs=1).errors


def test_exception_name_message_position_and_dedent(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        {
            "_src/m.py": """
            import textwrap
            from jax._src import core

            def f(tracer):
                raise core.ConcretizationTypeError(tracer, f"value of {tracer} used")

            def g():
                raise ValueError(textwrap.dedent('''
                    first line
                      indented'''))

            def h(spec):
                raise DuplicateSpecError(message=f"spec {spec} repeats")
            """,
        },
    )
    found = templates(result)
    assert found["value of {tracer} used"] == "ConcretizationTypeError"
    assert found["\nfirst line\n  indented"] == "ValueError"
    assert found["spec {spec} repeats"] == "DuplicateSpecError"


def test_enclosing_function_names(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        {
            "_src/m.py": """
            if True:
                raise ImportError("at module level")

            class Mesh:
                def __init__(self, n):
                    raise ValueError("in a method")

                class Inner:
                    def run(self):
                        raise ValueError("in a nested class")

            def outer():
                def inner():
                    raise ValueError("in a nested function")
                return inner
            """,
        },
    )
    assert one_site(result, "at module level") == ("jax/_src/m.py", 3, "<module>")
    assert one_site(result, "in a method") == ("jax/_src/m.py", 7, "Mesh.__init__")
    assert one_site(result, "in a nested class")[2] == "Mesh.Inner.run"
    assert one_site(result, "in a nested function")[2] == "outer.<locals>.inner"


def test_skipped_raises_are_counted_with_a_reason(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        {
            "_src/m.py": """
            def f(e, make):
                try:
                    pass
                except ValueError:
                    raise
                raise e
                raise StopIteration()
                raise ValueError(make("message"))
                raise ValueError(e.message)
            """,
            "_src/broken.py": "def f(:\n",
        },
    )
    assert result.errors == ()
    assert result.skip_counts == {
        "bare raise (re-raises the current exception)": 1,
        "exception constructed without arguments": 1,
        "file not parsed (syntax error)": 1,
        "message built by a function call": 1,
        "message is a Attribute expression": 1,
        "raises an exception object or class without a message": 1,
    }


# -- public API reach ------------------------------------------------------------------------


API_TREE = {
    "__init__.py": """
    from jax._src.api import jit as jit
    from jax._src.mesh import Mesh as Mesh
    from jax import numpy as numpy
    """,
    "numpy/__init__.py": "from jax._src.numpy.lax_numpy import reshape as reshape\n",
    "lax/__init__.py": "from jax._src.lax.lax import reshape as reshape\n",
    "_src/api.py": """
    from jax._src import dispatch

    def jit(fun):
        def wrapped(*args):
            return dispatch.apply(fun, args)
        return wrapped
    """,
    "_src/dispatch.py": """
    def apply(fun, args):
        return _check(args)

    def _check(args):
        raise TypeError(f"bad args {args}")
    """,
    "_src/numpy/lax_numpy.py": """
    from jax._src.lax import lax

    def reshape(a, shape):
        _validate(shape)
        return lax.reshape(a, shape)

    def _validate(shape):
        if shape is None:
            raise ValueError("shape must not be None")
        _deeper(shape)

    def _deeper(shape):
        _deepest(shape)

    def _deepest(shape):
        raise ValueError("three hops away")
    """,
    "_src/lax/lax.py": """
    reshape_p = standard_primitive(_reshape_shape_rule, "reshape")

    def reshape(operand, shape):
        return reshape_p.bind(operand, shape=shape)

    def _reshape_shape_rule(operand, shape):
        raise TypeError("reshape total size must be unchanged")
    """,
    "_src/mesh.py": """
    class Mesh:
        def __init__(self, devices):
            self._check(devices)

        def _check(self, devices):
            raise ValueError("mesh needs devices")

        def shape(self):
            raise ValueError("no shape yet")
    """,
    "_src/shard_map.py": """
    def shard_map(f):
        return f

    def _eager_rule(*args):
        raise ValueError("eager rule failed")

    eager_rules = {}
    eager_rules["ref_p"] = _eager_rule
    """,
    "sharding.py": "from jax._src.shard_map import shard_map as shard_map\n",
}


def apis_of(result: Extraction, template: str) -> tuple[str, ...]:
    (error,) = [e for e in result.errors if e.message == template]
    return error.apis


def test_api_reach_through_reexports_calls_and_rules(tmp_path: Path) -> None:
    result = run(tmp_path, API_TREE)
    # Re-exported by jax.numpy, raised one call away.
    assert apis_of(result, "shape must not be None") == ("jax.numpy.reshape",)
    # Nested wrapper function (free hop) + one call through an imported module.
    assert apis_of(result, "bad args {args}") == ("jax.jit",)
    # lax.reshape binds reshape_p, whose shape rule raises; jax.numpy.reshape calls lax.reshape.
    assert apis_of(result, "reshape total size must be unchanged") == (
        "jax.lax.reshape",
        "jax.numpy.reshape",
    )
    # Beyond the hop limit: no API claimed.
    assert apis_of(result, "three hops away") == ()
    # Classes: the constructor reaches helper methods through self; public methods are APIs.
    assert apis_of(result, "mesh needs devices") == ("jax.Mesh",)
    assert apis_of(result, "no shape yet") == ("jax.Mesh.shape",)
    # Unreached machinery of a module named after its export.
    assert apis_of(result, "eager rule failed") == ("jax.sharding.shard_map",)
    assert "jax.numpy.reshape" in result.apis_with_errors()


def test_index_document_schema_and_determinism(tmp_path: Path) -> None:
    root = make_tree(tmp_path, API_TREE, version="1.2.3")
    out = tmp_path / "out" / "index.json"
    assert main(["--from", str(root), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert main(["--from", str(root / "jax"), "--out", str(tmp_path / "again.json")]) == 0
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == text
    data = json.loads(text)
    assert data["format"] == 1 and data["jax_version"] == "1.2.3"
    assert data["generator"] == "jaxerr-ls catalog extract"
    assert data["source"] == "jax-1.2.3 source tree"
    ids = [e["id"] for e in data["errors"]]
    assert ids == sorted(ids)
    for error in data["errors"]:
        assert error["id"] == error_id(error["exception"], error["message"])
        assert set(error) == {
            "id",
            "exception",
            "message",
            "title",
            "apis",
            "api_depths",
            "raised_at",
        }
        assert len(error["api_depths"]) == len(error["apis"])
        for site in error["raised_at"]:
            assert set(site) - {"condition"} == {"file", "line", "function"}
    loaded, version = load_index(out)
    assert version == "1.2.3" and not loaded.problems
    assert len(loaded.entries) == len(ids)


def test_sites_of_one_template_are_grouped(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        {
            "_src/b.py": "def g():\n    raise TypeError('ref must be a reference')\n",
            "_src/a.py": "def f():\n    pass\n    raise TypeError('ref must be a reference')\n",
        },
    )
    (error,) = result.errors
    assert [(s.file, s.line) for s in error.raised_at] == [
        ("jax/_src/a.py", 3),
        ("jax/_src/b.py", 2),
    ]
    assert error.id == error_id("TypeError", "ref must be a reference")


def test_main_reads_a_wheel_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import zipfile

    wheel = tmp_path / "jax-3.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("jax/version.py", '_version = "3.0.0"\n')
        archive.writestr("jax/__init__.py", "from jax._src.x import f as f\n")
        archive.writestr(
            "jax/_src/x.py", "def f():\n    raise ValueError('from a wheel')\n    raise\n"
        )
        archive.writestr("jax-3.0.0.dist-info/METADATA", "Name: jax\n")
    out = tmp_path / "idx.json"
    assert main(["--from", str(wheel), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "raise sites with a literal message: 1" in printed
    assert "public APIs reaching >= 1 error: 1" in printed
    assert "bare raise" in printed and "jax/_src/x.py:3" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["source"] == wheel.name
    assert data["errors"][0]["apis"] == ["jax.f"]


def test_bad_source_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--from", str(tmp_path)]) == 2
    assert "no jax package" in capsys.readouterr().err
    with pytest.raises(SourceError):
        extract(tmp_path / "missing")


def test_titles() -> None:
    assert title_of("Eager shard_map cannot return a `jax.Ref`. Please wrap it.") == (
        "Eager shard_map cannot return a `jax.Ref`"
    )
    assert title_of("Incompatible shapes for broadcasting: {shapes}") == (
        "Incompatible shapes for broadcasting"
    )
    long = title_of("word " * 40)
    assert len(long) <= 80 and long.endswith("…")
    assert title_of("x.shape[0] must be {n}") == "x.shape[0] must be {n}"


# -- the committed multi-release index (every release 0.4.26 ... 0.10.2) -------------------------


@pytest.fixture(scope="module")
def committed() -> dict[str, object]:
    data = json.loads(gzip.decompress(INDEX.read_bytes()).decode("utf-8"))
    assert isinstance(data, dict)
    return data


def _errors(data: dict[str, object]) -> list[dict[str, object]]:
    errors = data["errors"]
    assert isinstance(errors, list)
    return errors


def _in_release(data: dict[str, object], version: str) -> set[tuple[str, str]]:
    """(exception, template) of every wording the index says `version` raises."""
    releases = data["releases"]
    assert isinstance(releases, list)
    bit = 1 << releases.index(version)
    found = set()
    for error in _errors(data):
        exception = str(error["exception"])
        for wording in [error, *error.get("wordings", [])]:  # type: ignore[list-item]
            if wording["versions"] & bit:  # type: ignore[index, operator]
                found.add((exception, str(wording["message"])))  # type: ignore[index]
    return found


def test_committed_index_covers_every_release(committed: dict[str, object]) -> None:
    assert committed["jax_version"] == "0.10.2"
    releases = committed["releases"]
    assert isinstance(releases, list)
    assert releases[0] == "0.4.26" and releases[-1] == "0.10.2"
    assert {"0.4.38", "0.5.3", "0.6.2", "0.7.2", "0.8.3", "0.9.2"} <= set(releases)
    newest = [e for e in _errors(committed) if "jax" not in e["raised_at"][0]]  # type: ignore[index]
    sites = sum(len(e["raised_at"]) for e in newest)  # type: ignore[arg-type, misc]
    assert sites >= 0.95 * JAX_0_10_2_SITES
    assert INDEX.stat().st_size < 1_500_000
    # Each template is stored once.
    texts = [
        (e["exception"], w["message"])
        for e in _errors(committed)
        for w in [e, *e.get("wordings", [])]  # type: ignore[list-item]
    ]
    assert len(texts) == len(set(texts))


def test_committed_index_loads_cleanly() -> None:
    loaded, version = load_index(INDEX)
    assert version == "0.10.2"
    assert loaded.problems == ()
    assert all(entry.versions for entry in loaded.entries)


@pytest.mark.parametrize(
    "api",
    [
        "jax.shard_map",
        "jax.jit",
        "jax.numpy.reshape",
        "jax.lax.scan",
        "jax.experimental.pallas.mosaic_gpu.remote_ref",
    ],
)
def test_committed_index_reaches_key_apis(committed: dict[str, object], api: str) -> None:
    assert any(api in e["apis"] for e in _errors(committed))  # type: ignore[operator]


def test_committed_index_has_the_seed_errors(committed: dict[str, object]) -> None:
    by_message = {e["message"]: e for e in _errors(committed)}
    eager = by_message[
        "Eager shard_map cannot return a `jax.Ref`. Please wrap your shard_map in `jax.jit`."
    ]
    assert eager["exception"] == "ValueError"
    assert (
        eager["raised_at"]
        == [
            {
                "file": "jax/_src/shard_map.py",
                "line": 1522,
                "function": "_ref_raise_valueerror",
                "condition": "any((isinstance(o, core.Ref) for o in out_flat))",
            }
        ]
        or eager["raised_at"][0]["line"] == 1522
    )  # type: ignore[index]
    assert "jax.shard_map" in eager["apis"]  # type: ignore[operator]
    ref = by_message["ref must be a reference"]
    assert ref["exception"] == "TypeError"
    assert any(
        site["file"] == "jax/_src/pallas/mosaic_gpu/core.py" and site["line"] == 1026
        for site in ref["raised_at"]  # type: ignore[attr-defined]
    )
    assert "jax.experimental.pallas.mosaic_gpu.remote_ref" in ref["apis"]  # type: ignore[operator]


def test_committed_index_knows_older_wordings(committed: dict[str, object]) -> None:
    """Issue 10's example: JAX 0.4.x said `unbound axis name: x`."""
    old = [
        e
        for e in _errors(committed)
        for w in e.get("wordings", [])  # type: ignore[attr-defined]
        if w["message"].startswith("unbound axis name")
    ]
    assert old and old[0]["message"].startswith("Found an unbound axis name")  # type: ignore[index]


def test_committed_index_apis_with_errors(committed: dict[str, object]) -> None:
    apis = {api for e in _errors(committed) for api in e["apis"]}  # type: ignore[attr-defined]
    assert len(apis) >= 100
    for error in _errors(committed):
        depths = error["api_depths"]
        assert isinstance(depths, list) and len(depths) == len(error["apis"])  # type: ignore[arg-type]
        assert depths == sorted(depths)


def _wheel() -> Path:
    if not WHEEL.is_file():
        WHEELS.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", "jax==0.10.2", "--no-deps"]
        done = subprocess.run(
            [*command, "-d", str(WHEELS), "-q"], capture_output=True, text=True, timeout=300
        )
        if done.returncode != 0 or not WHEEL.is_file():
            pytest.skip(f"could not download the jax 0.10.2 wheel: {done.stderr[-300:]}")
    return WHEEL


@pytest.mark.jax
def test_regenerating_the_newest_release_agrees_with_the_index(
    tmp_path: Path, committed: dict[str, object]
) -> None:
    out = tmp_path / "jax-0.10.2.json"
    started = time.perf_counter()
    assert main(["--from", str(_wheel()), "--out", str(out)]) == 0
    print(f"extracted the 0.10.2 wheel in {time.perf_counter() - started:.1f} s")
    single = json.loads(out.read_text(encoding="utf-8"))
    assert {(e["exception"], e["message"]) for e in single["errors"]} == _in_release(
        committed, "0.10.2"
    )
