"""The extractor reads JAX's warnings as it reads its raises (issue 18): a `warnings.warn` call
with a literal-style message is a site whose class is the warning's category."""

from __future__ import annotations

from pathlib import Path

from jaxerr_ls.extract.sites import RaiseSite
from tests.test_extract import run


def warning_sites(tmp_path: Path, text: str, name: str = "_src/mod.py") -> list[RaiseSite]:
    result = run(tmp_path, {name: text})
    return [s for s in result.sites if s.file == f"jax/{name}"]


def test_each_way_of_naming_the_category(tmp_path: Path) -> None:
    sites = warning_sites(
        tmp_path,
        """
        import warnings
        import numpy as np

        def positional(x):
            if x.ndim > 2:
                warnings.warn(f"rank {x.ndim} is deprecated", DeprecationWarning, stacklevel=2)

        def keyword(x):
            warnings.warn("keyword form", category=FutureWarning)

        def default():
            warnings.warn("no category given")

        def dotted():
            warnings.warn("complex to real", np.exceptions.ComplexWarning)

        def instance():
            warnings.warn(RuntimeWarning("an instance names its category"))

        def message_keyword():
            warnings.warn(message="message by keyword", category=UserWarning)
        """,
    )
    found = {(s.function, s.exception, s.template, s.condition) for s in sites}
    assert found == {
        ("positional", "DeprecationWarning", "rank {x.ndim} is deprecated", "x.ndim > 2"),
        ("keyword", "FutureWarning", "keyword form", ""),
        ("default", "UserWarning", "no category given", ""),
        ("dotted", "ComplexWarning", "complex to real", ""),
        ("instance", "RuntimeWarning", "an instance names its category", ""),
        ("message_keyword", "UserWarning", "message by keyword", ""),
    }


def test_warn_imported_from_warnings_and_a_message_variable(tmp_path: Path) -> None:
    sites = warning_sites(
        tmp_path,
        """
        from warnings import warn
        from warnings import warn as _warn

        def f(shapes):
            msg = "Following NumPy automatic rank promotion on shapes {}".format(shapes)
            warn(msg)

        def g(exc):
            _warn(f"init failed: {exc!r}", RuntimeWarning)
        """,
    )
    assert {(s.function, s.exception, s.template) for s in sites} == {
        ("f", "UserWarning", "Following NumPy automatic rank promotion on shapes {shapes}"),
        ("g", "RuntimeWarning", "init failed: {exc}"),
    }


def test_jax_deprecations_warn_and_table(tmp_path: Path) -> None:
    sites = warning_sites(
        tmp_path,
        """
        from jax._src import deprecations

        def one_hot(x):
            if not x.integral:
                deprecations.warn(
                    "jax-nn-one-hot-float-input",
                    f"jax.nn.one_hot input should be integer-typed; got dtype={x.dtype}",
                    stacklevel=1,
                )

        _deprecations = {
            "tree_map": ("jax.tree_map is deprecated: use jax.tree.map.", _tree_map),
            "gone": ("jax.gone was removed in JAX v0.6.0.", None),
        }
        """,
    )
    assert {(s.function, s.exception, s.template, s.condition) for s in sites} == {
        (
            "one_hot",
            "DeprecationWarning",
            "jax.nn.one_hot input should be integer-typed; got dtype={x.dtype}",
            "not x.integral",
        ),
        ("<module>", "DeprecationWarning", "jax.tree_map is deprecated: use jax.tree.map.", ""),
    }


def test_what_gives_no_warning_site(tmp_path: Path) -> None:
    sites = warning_sites(
        tmp_path,
        """
        import warnings
        import logging

        logger = logging.getLogger(__name__)

        def computed(message):
            warnings.warn(message)  # a parameter: known only at run time

        def category_variable(category):
            warnings.warn("literal text", category)  # the class is a variable

        def other_warn(obj):
            obj.warn("not the warnings module")
            logger.warn("a log line, not a warning")

        def empty():
            warnings.warn("")

        def filters():
            warnings.simplefilter("ignore")
        """,
    )
    # The logger's line is a logged message (tests/test_extract_logs.py), not a warning.
    assert [(s.exception, s.template) for s in sites] == [
        ("LogMessage", "a log line, not a warning")
    ]


def test_a_warning_and_a_raise_of_one_function_stay_apart(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        {
            "_src/mod.py": """
            import warnings

            def f(x):
                if x < 0:
                    raise ValueError("negative")
                warnings.warn("large", UserWarning)
            """,
            "numpy/__init__.py": "from jax._src.mod import f as f\n",
        },
    )
    by_class = {e.exception: e for e in result.errors}
    assert by_class["ValueError"].message == "negative"
    assert by_class["UserWarning"].message == "large"
    assert by_class["UserWarning"].id != by_class["ValueError"].id
    assert "jax.numpy.f" in by_class["UserWarning"].apis
