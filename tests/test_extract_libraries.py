"""The extractor on the libraries used with JAX: any package name, classes that word their own
message (Flax's `flax.errors`), Chex's assertion prefix, plain re-exports, the committed indexes."""

from __future__ import annotations

import gzip
import json
import textwrap
import zipfile
from pathlib import Path

import pytest

from jaxerr_ls.catalog import load_catalog
from jaxerr_ls.catalog.versions import version_key
from jaxerr_ls.extract import Extraction, extract, main
from jaxerr_ls.extract.libraries import LIBRARIES
from jaxerr_ls.extract.source import SourceError, read_source
from tests.library_code import LIBRARIES as PINNED
from tests.library_code import library_root

ROOT = Path(__file__).resolve().parents[1]


def make_package(root: Path, package: str, files: dict[str, str]) -> Path:
    folder = root.joinpath(*package.split("."))
    for relative, text in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


FLAXLIKE = {
    "__init__.py": '__version__ = "9.1.0"\nfrom .core import apply as apply\n',
    "errors.py": """
        class FlaxError(Exception):
          def __init__(self, message):
            error_page = 'https://docs.example/errors.html'
            module_name = self.__class__.__module__
            class_name = self.__class__.__name__
            if error_page not in message:
              message = f'{message} ({error_page}#{module_name}.{class_name})'
            super().__init__(message)

        class ShapeError(FlaxError):
          def __init__(self, name, shape):
            super().__init__(f'Parameter "{name}" has shape {shape}.')

        class PlainError(FlaxError):
          pass

        class NoArgsError(FlaxError):
          def __init__(self):
            super().__init__("Can't call this on unbound modules")
    """,
    "core.py": """
        from flax import errors

        def apply(variables, name):
          if name not in variables:
            raise errors.ShapeError(name, variables)
          if not variables:
            raise errors.PlainError('variables are empty')
          raise errors.NoArgsError()
    """,
}


def templates(result: Extraction) -> dict[str, str]:
    return {e.message: e.exception for e in result.errors}


def test_classes_word_their_message_inside_the_base_link(tmp_path: Path) -> None:
    result = extract(make_package(tmp_path, "flax", FLAXLIKE), jobs=1, package="flax")
    assert result.version == "9.1.0" and result.package == "flax"
    link = " (https://docs.example/errors.html#flax.errors.{})"
    assert templates(result) == {
        'Parameter "{name}" has shape {shape}.' + link.format("ShapeError"): "ShapeError",
        "variables are empty" + link.format("PlainError"): "PlainError",
        "Can't call this on unbound modules" + link.format("NoArgsError"): "NoArgsError",
    }
    # ids name the library; the raise's API is the package's re-export
    assert all(e.id.startswith("flax-") for e in result.errors)
    assert all(e.apis == ("flax.apply",) for e in result.errors)


def test_chex_assertions_print_their_prefix(tmp_path: Path) -> None:
    files = {
        "__init__.py": '__version__ = "0.0.1"\nfrom chex._src.asserts import assert_shape\n'
        "__all__ = ['assert_shape']\n",
        "_src/__init__.py": "",
        "_src/asserts.py": """
            def assert_shape(x, shape):
              if x.shape != shape:
                raise AssertionError(f"input has shape {x.shape}, expected {shape}.")
              helper(x)

            def helper(x):
              raise AssertionError("not prefixed: not an assertion of its own")

            def assert_max_traces(fn, n):
              def fn_wrapped(*args):
                raise AssertionError(f"{_ai.ERR_PREFIX}Function '{fn.__name__}' is traced > {n}")
              return fn_wrapped
        """,
    }
    result = extract(make_package(tmp_path, "chex", files), jobs=1, package="chex")
    assert templates(result) == {
        "[Chex] Assertion assert_shape failed: input has shape {x.shape}, expected {shape}.": (
            "AssertionError"
        ),
        "not prefixed: not an assertion of its own": "AssertionError",
        # Raised when the decorated function is called, outside the assertion's wrapper: Chex's
        # own prefix constant, printed as it is (chex#210).
        "[Chex] Function '{fn.__name__}' is traced > {n}": "AssertionError",
    }


def test_a_library_is_read_as_older_releases_are(tmp_path: Path) -> None:
    """Flax 0.3's `assert rng is not None, 'Need PRNG for "%s"' % kind` (flax#895), a warning,
    and an exception built before its raise: a library's every form is read."""
    files = {
        "__init__.py": '__version__ = "0.3.0"\nfrom .core import init as init\n',
        "core.py": """
            import warnings

            def init(rngs, kind, x):
              rng = rngs.get(kind)
              assert rng is not None, 'Need PRNG for "%s"' % kind
              if x.static:
                warnings.warn("A JAX array is being set as static!")
              err = ValueError(f"bad input {x}")
              raise err
        """,
    }
    result = extract(make_package(tmp_path, "flax", files), jobs=1, package="flax")
    assert templates(result) == {
        'Need PRNG for "{kind}"': "AssertionError",
        "A JAX array is being set as static!": "UserWarning",
        "bad input {x}": "ValueError",
    }


def test_plain_reexports_of_a_package_and_their_shortest_names(tmp_path: Path) -> None:
    files = {
        "__init__.py": '__version__ = "0.2.0"\nfrom optax._src.alias import adamw\n',
        "_src/__init__.py": "",
        "_src/alias.py": """
            def adamw(lr):
              if lr < 0:
                raise ValueError(f"learning rate must be positive, got {lr}")
        """,
        "contrib/__init__.py": "from optax._src.alias import adamw\n",
    }
    result = extract(make_package(tmp_path, "optax", files), jobs=1, package="optax")
    (error,) = result.errors
    # `optax.contrib.adamw` is the same function by a longer path: users import `optax.adamw`
    assert error.apis == ("optax.adamw",)


def test_orbax_is_a_dotted_package_read_from_its_wheel(tmp_path: Path) -> None:
    wheel = tmp_path / "orbax_checkpoint-1.2.3-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("orbax/checkpoint/__init__.py", "from .manager import Manager\n")
        archive.writestr(
            "orbax/checkpoint/manager.py",
            "class Manager:\n  def __init__(self, path):\n"
            "    raise ValueError(f'Checkpoint path should be absolute. Got {path}')\n",
        )
        archive.writestr("orbax_checkpoint-1.2.3.dist-info/METADATA", "Name: x\nVersion: 1.2.3\n")
    source = read_source(wheel, "orbax.checkpoint")
    assert (source.version, sorted(source.files)) == (
        "1.2.3",
        ["orbax/checkpoint/__init__.py", "orbax/checkpoint/manager.py"],
    )
    out = tmp_path / "orbax.json.gz"
    assert main(["--library", "orbax", "--from", str(wheel), "--out", str(out)]) == 0
    document = json.loads(gzip.decompress(out.read_bytes()))
    assert (document["library"], document["version"], document["releases"]) == (
        "orbax",
        "1.2.3",
        ["1.2.3"],
    )
    (error,) = document["errors"]
    assert error["id"].startswith("orbax-")
    assert error["apis"] == ["orbax.checkpoint.Manager"]


def test_bad_library_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SourceError, match="no flax package"):
        read_source(tmp_path, "flax")
    assert main(["--library", "flax"]) == 2
    assert "needs --from or --download" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_committed_library_index(name: str) -> None:
    path = ROOT / "catalog" / "libraries" / f"{name}.json.gz"
    document = json.loads(gzip.decompress(path.read_bytes()))
    library = LIBRARIES[name]
    assert document["library"] == name and document["package"] == library.dist
    assert document["releases"] == sorted(library.releases, key=version_key)
    assert document["version"] == document["releases"][-1]
    assert all(e["id"].startswith(f"{name}-") for e in document["errors"])
    assert len(document["errors"]) > 50


def test_library_entries_in_the_loaded_catalog() -> None:
    catalog = load_catalog()
    by_library: dict[str, int] = {}
    for entry in catalog.entries:
        by_library[entry.library] = by_library.get(entry.library, 0) + 1
        if entry.library in LIBRARIES:
            # their releases are the library's; `versions` stays JAX's (a curated entry knows
            # its library's releases from the generated entries it folds, when there are any)
            assert entry.versions == (), entry.id
            assert entry.library_versions or entry.curated, entry.id
    assert set(LIBRARIES) <= set(by_library)
    shape = catalog.get("flax-scope-param-shape")
    assert shape is not None and shape.library == "flax"
    # Flax's first release raising it (every release is read: 0.3.6 was the sample's).
    assert shape.library_versions[0] == "0.3.3" and shape.library_versions[-1] == "0.12.8"


def test_regenerating_flax_agrees_with_the_committed_index() -> None:
    """The newest Flax release, read again from its wheel (pinned in tests/library_code.py),
    gives the templates the committed index says it raises."""
    assert PINNED["flax"] == LIBRARIES["flax"].releases[-1]
    result = extract(library_root("flax"), jobs=1, package="flax")
    path = ROOT / "catalog" / "libraries" / "flax.json.gz"
    document = json.loads(gzip.decompress(path.read_bytes()))
    newest = 1 << document["releases"].index(result.version)
    committed = {
        (e["exception"], text)
        for e in document["errors"]
        for text, mask in [(e["message"], e["versions"])]
        + [(w["message"], w["versions"]) for w in e.get("wordings", [])]
        if mask & newest
    }
    assert {(e.exception, e.message) for e in result.errors} == committed


def test_a_release_read_later_keeps_the_published_ids(tmp_path: Path) -> None:
    """Widening an index must not retire an id that curated entries, tests or evidence cite:
    0.2's wording links 0.1's to 0.3's, which were two entries before 0.2 was read."""

    def release(version: str, files: dict[str, str]) -> Path:
        return make_package(
            tmp_path / version, "optax", {"__init__.py": f'__version__ = "{version}"\n', **files}
        )

    old = release("0.1.0", {"a.py": "def f(x):\n  raise ValueError(f'alpha {x}')\n"})
    middle = release("0.2.0", {"a.py": "def f(x):\n  raise ValueError(f'gamma {x}')\n"})
    new = release("0.3.0", {"b.py": "def f(x):\n  raise ValueError(f'gamma {x}')\n"})
    out = tmp_path / "optax.json.gz"

    def ids() -> set[str]:
        return {e["id"] for e in json.loads(gzip.decompress(out.read_bytes()))["errors"]}

    assert main(["--library", "optax", "--from", str(old), str(new), "--out", str(out)]) == 0
    published = ids()
    assert len(published) == 2
    assert (
        main(["--library", "optax", "--from", str(old), str(middle), str(new), "--out", str(out)])
        == 0
    )
    assert ids() == published
    # Read afresh, the middle release joins them: the id the published index keeps is lost.
    fresh = tmp_path / "fresh.json.gz"
    assert (
        main(["--library", "optax", "--from", str(old), str(middle), str(new), "--out", str(fresh)])
        == 0
    )
    assert len(json.loads(gzip.decompress(fresh.read_bytes()))["errors"]) == 1
