"""Installation and version-skew errors of jaxlib (issue 18), as users pasted them in public
threads (each paste copied verbatim, its URL beside it), reach the curated entry that says what
happened and what to install; look-alike messages of other causes stay away from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxerr_ls.catalog import Matcher, load_catalog
from jaxerr_ls.explain import explain_text
from jaxerr_ls.render.terminal import render_entry_page

CATALOG = load_catalog()

# (URL, the lines the user pasted, the entry a reader of the thread expects)
PASTES: list[tuple[str, str, str]] = [
    # jaxlib's CPU feature guard (jaxlib/cpu_feature_guard.c).
    (
        "https://github.com/omadson/fuzzy-c-means/issues/30",
        "RuntimeError: This version of jaxlib was built using AVX instructions, which your CPU "
        "and/or operating system do not support. You may be able work around this issue by "
        "building jaxlib from source.",
        "jaxlib-cpu-lacks-avx",
    ),
    (
        "https://github.com/jax-ml/jax/issues/31723",
        "    cpu_feature_guard.check_cpu_features()\n"
        "    ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~^^\n"
        "RuntimeError: This version of jaxlib was built using AVX instructions, which your CPU "
        "and/or operating system do not support. You may be able work around this issue by "
        "building jaxlib from source.",
        "jaxlib-cpu-lacks-avx",
    ),
    (
        "https://github.com/renecotyfanboy/jaxspec/issues/171",
        "RuntimeError: This version of jaxlib was built using AVX instructions, which your CPU "
        "and/or operating system do not support.",
        "jaxlib-cpu-lacks-avx",
    ),
    (
        "https://github.com/nhsx/skunkworks-bed-allocation/issues/35",
        "RuntimeError: This version of jaxlib was built using AVX instructions, which your CPU "
        "and/or operating system do not support. You may be able work around this issue by "
        "building jaxlib from source. ",
        "jaxlib-cpu-lacks-avx",
    ),
    (
        # The macOS wording (x86 Python under Rosetta), pasted without its class.
        "https://github.com/Lux-AI-Challenge/Lux-Design-S3/issues/21",
        "This version of jaxlib was built using AVX instructions, which your CPU and/or operating "
        "system do not support. This error is frequently encountered on macOS when running an "
        "x86 Python installation on ARM hardware. In this case, try installing an ARM build of "
        "Python. Otherwise, you may be able work around this issue by building jaxlib from "
        "source.",
        "jaxlib-cpu-lacks-avx",
    ),
    # Windows: jaxlib's .pyd modules.
    (
        "https://github.com/jax-ml/jax/issues/33921",
        "Top level import failed: DLL load failed while importing utils: A dynamic link library "
        "(DLL) initialization routine failed.",
        "jaxlib-dll-load-failed",
    ),
    (
        "https://github.com/ipython/ipython/issues/15153",
        "ImportError: DLL load failed while importing _jax: A dynamic link library (DLL) "
        "initialization routine failed.",
        "jaxlib-dll-load-failed",
    ),
    (
        "https://github.com/neuralgcm/neuralgcm/issues/190",
        'File "D:\\python3.10\\lib\\site-packages\\jax\\_src\\lib\\__init__.py", line 86, in '
        "<module>\n"
        "    import jaxlib.utils as utils  # noqa: F401\n"
        "ImportError: DLL load failed while importing utils:",
        "jaxlib-dll-load-failed",
    ),
    (
        "https://github.com/n2cholas/awesome-jax/issues/126",
        "ImportError: DLL load failed while importing utils: A failure occurred in the dynamic "
        "link library (DLL) initialization routine.",
        "jaxlib-dll-load-failed",
    ),
    # jaxlib's shared object needs a symbol nothing loaded defines.
    (
        "https://github.com/conda-forge/jaxlib-feedstock/issues/139",
        "E   ImportError: /home/runner/micromamba-root/envs/jaxbug-test/lib/python3.10/"
        "site-packages/jaxlib/xla_extension.so: undefined symbol: _ZN4absl12lts_202206235MutexD1Ev",
        "jaxlib-undefined-symbol",
    ),
    (
        # The same paste in conda-forge/jaxlib-feedstock#70.
        "https://github.com/conda-forge/jax-feedstock/issues/69",
        "ImportError: dlopen(/Users/beckermr/miniconda3/envs/desy6/lib/python3.8/site-packages/"
        "jaxlib/xla_extension.so, 2): Symbol not found: "
        "__ZN3jax12_GLOBAL__N_121CompiledFunctionCache16kDefaultCapacityE\n"
        "  Referenced from: /Users/beckermr/miniconda3/envs/desy6/lib/python3.8/site-packages/"
        "jaxlib/xla_extension.so\n"
        "  Expected in: flat namespace\n"
        " in /Users/beckermr/miniconda3/envs/desy6/lib/python3.8/site-packages/jaxlib/"
        "xla_extension.so",
        "jaxlib-undefined-symbol",
    ),
    (
        "https://github.com/jax-ml/jax/issues/6118",
        "ImportError: dlopen(/Users/lucchem/opt/miniconda3/lib/python3.8/site-packages/jaxlib/"
        "xla_extension.so, 2): Symbol not found: __ZN10tensorflow8profiler11MonitorGrpcERKNSt3__1"
        "12basic_stringIcNS1_11char_traitsIcEENS1_9allocatorIcEEEERKNS_14MonitorRequestEPNS_15"
        "MonitorResponseE",
        "jaxlib-undefined-symbol",
    ),
    (
        "https://github.com/jax-ml/jax/issues/3982",
        "ImportError: dlopen(/Users/Chris/miniconda3/envs/python3/lib/python3.8/site-packages/"
        "jaxlib/xla_extension.so, 2): Symbol not found: ____chkstk_darwin",
        "jaxlib-undefined-symbol",
    ),
    (
        "https://github.com/jax-ml/jax/issues/11729",
        "ImportError: /.conda/envs/sourceXena_8.3.0/lib/python3.10/site-packages/jaxlib/"
        "xla_extension.so: undefined symbol: cublasGetStatusString",
        "jaxlib-undefined-symbol",
    ),
    (
        # XLA's Python extension built from XLA's own sources (bazel-out/.../xla/python/).
        "https://github.com/openxla/xla/issues/14433",
        "ImportError: /root/.cache/bazel/_bazel_root/aa540acd08fedebcf9b65fe09350ff75/execroot/"
        "xla/bazel-out/k8-opt/bin/xla/python/xla_extension.so: undefined symbol: "
        "descriptor_table_xla_2fxla_5fdata_2eproto",
        "jaxlib-undefined-symbol",
    ),
    # glibc 2.41+ refuses a shared object marked for an executable stack.
    (
        "https://github.com/jax-ml/jax/issues/26781",
        "    from . import xla_extension as _xla\n"
        "ImportError: /path/to/my/env/myenv_name/lib/python3.11/site-packages/jaxlib/"
        "xla_extension.so: cannot enable executable stack as shared object requires: Invalid "
        "argument",
        "jaxlib-executable-stack",
    ),
    # A jaxlib module the caller imports is not there.
    (
        "https://github.com/jax-ml/jax/issues/12136",
        "ImportError: cannot import name 'pytree' from 'jaxlib' "
        "(/home/hj/anaconda3/envs/carla/lib/python3.8/site-packages/jaxlib/__init__.py)",
        "jaxlib-cannot-import-name",
    ),
    (
        "https://github.com/XanderJC/scalable-birl/issues/7",
        "cannot import name 'pytree' from 'jaxlib'",
        "jaxlib-cannot-import-name",
    ),
    (
        "https://github.com/jax-ml/jax/issues/5800",
        "ImportError: cannot import name 'xla_client' from 'jaxlib' (unknown location)",
        "jaxlib-cannot-import-name",
    ),
    # Python 3.6 did not say where from; XLA's own module names say it.
    (
        "https://github.com/jax-ml/jax/issues/2436",
        "ImportError: cannot import name 'xla_data_pb2'",
        "jaxlib-cannot-import-name",
    ),
    (
        "https://github.com/Emerge-Lab/gpudrive/issues/499",
        "    from jaxlib.xla_extension import ArrayImpl\n"
        "ModuleNotFoundError: No module named 'jaxlib.xla_extension'",
        "jaxlib-cannot-import-name",
    ),
    # NumPy C-API skew (jaxlib, ml_dtypes).
    (
        "https://github.com/conda-forge/jaxlib-feedstock/issues/259",
        "from . import xla_extension as _xla\n"
        "AttributeError Traceback (most recent call last)\n"
        "AttributeError: _ARRAY_API not found",
        "numpy-abi-mismatch",
    ),
    (
        "https://github.com/XanaduAI/GradDFT/pull/98",
        "AttributeError: _ARRAY_API not found",
        "numpy-abi-mismatch",
    ),
    (
        "https://github.com/XanaduAI/GradDFT/pull/98",
        "ImportError: numpy.core._multiarray_umath failed to import",
        "numpy-abi-mismatch",
    ),
    (
        "https://github.com/google/nerfies/issues/72",
        '  File "/usr/local/lib/python3.8/dist-packages/ml_dtypes/__init__.py", line 29, in '
        "<module>\n"
        "    from ml_dtypes._custom_floats import bfloat16\n"
        "ImportError: numpy.core.umath failed to import",
        "numpy-abi-mismatch",
    ),
    (
        "https://github.com/alpa-projects/alpa/issues/461",
        "RuntimeError: module compiled against API version 0xf but this version of numpy is 0xe",
        "numpy-abi-mismatch",
    ),
    # A CUDA library the GPU jaxlib links to is not found.
    (
        "https://github.com/jax-ml/jax/issues/2315",
        "ImportError: libcusolver.so.10.0: cannot open shared object file: No such file or "
        "directory",
        "cuda-library-not-found",
    ),
    (
        "https://github.com/jax-ml/jax/issues/602",
        "ImportError: libcusolver.so.9.0: cannot open shared object file: No such file or "
        "directory",
        "cuda-library-not-found",
    ),
    (
        "https://github.com/jax-ml/jax/issues/1377",
        "---> 37 from . import xla_extension as _xla\n"
        "     38 from .xla_extension import ops\n"
        "     39\n"
        "\n"
        "ImportError: libcusolver.so.10.0: cannot open shared object file: No such file or "
        "directory",
        "cuda-library-not-found",
    ),
]

NEW = {
    "jaxlib-cpu-lacks-avx",
    "jaxlib-dll-load-failed",
    "jaxlib-undefined-symbol",
    "jaxlib-cannot-import-name",
    "numpy-abi-mismatch",
    "cuda-library-not-found",
    "jaxlib-executable-stack",
}


def _entry(text: str, matcher: Matcher) -> str | None:
    explained = explain_text(text, matcher)
    assert explained, f"nothing read in {text!r}"
    found = explained[-1].to_json()["entry"]
    return None if found is None else str(found["id"])


@pytest.mark.parametrize(
    ("url", "text", "entry"), PASTES, ids=[f"{e}@{u.split('/', 3)[-1]}" for u, _, e in PASTES]
)
def test_paste_reaches_its_entry(url: str, text: str, entry: str, matcher: Matcher) -> None:
    assert _entry(text, matcher) == entry, url


def test_every_entry_has_its_pastes_and_says_what_to_install() -> None:
    reached = {entry for _, _, entry in PASTES}
    assert reached == NEW
    for name in NEW:
        entry = CATALOG.get(name)
        assert entry is not None and entry.curated and entry.library == "xla", name
        # Every thread the entry cites is one of the pastes above, and the count says so.
        urls = {u for u, _, e in PASTES if e == name}
        assert urls <= set(entry.evidence), name
        assert entry.frequency == len(entry.evidence), name
        assert entry.proof_skip and entry.triggers, name
        assert any("pip install" in s for s in entry.solutions), name


def test_array_api_is_numpy_skew_not_orbax(matcher: Matcher) -> None:
    # Before issue 18 this line was explained as Orbax's `{dep} not found.`.
    assert _entry("AttributeError: _ARRAY_API not found", matcher) == "numpy-abi-mismatch"
    found = matcher.match("AttributeError", "_ARRAY_API not found")
    assert found is not None and found.entry.id == "numpy-abi-mismatch"
    assert found.entry.library != "orbax"


@pytest.mark.parametrize(
    ("paste", "printed"),
    [
        ("603-jax-2606-numpy-api-ipython.txt", "RuntimeError"),
        ("604-jax-21937-array-api-not-found.txt", "AttributeError"),
    ],
)
def test_numpy_prints_its_check_with_other_classes(
    matcher: Matcher, paste: str, printed: str
) -> None:
    # NumPy's import-time check prints RuntimeError or AttributeError before the ImportError: the
    # entry names those classes, so the user's line is its error, not a look-alike of another class.
    entry = matcher.catalog.by_id["numpy-abi-mismatch"]
    assert printed in entry.other_classes
    text = (Path(__file__).parents[1] / "field" / "pastes" / paste).read_text()
    found = [e for e in explain_text(text, matcher) if e.traceback.exception == printed]
    assert found and all(e.match is not None for e in found)
    assert {e.match.entry.id for e in found if e.match} == {"numpy-abi-mismatch"}
    assert all(e.match.score == 100 for e in found if e.match)
    # `catalog show` says so.
    page = "\n".join(render_entry_page(entry))
    assert "Also printed as" in page and "RuntimeError, AttributeError" in page
    # The same texts under a class NumPy never prints them with stay less sure.
    other = matcher.match("KeyError", "_ARRAY_API not found")
    assert other is not None and other.score < 100


def test_numpy_two_wording_reads_its_version(matcher: Matcher) -> None:
    # NumPy 2's own wording (numpy/core/_multiarray_umath.py), message on the lines after the class.
    found = matcher.match(
        "ImportError",
        "\nA module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.0.0 as it may crash. To support both 1.x and 2.x\n"
        "versions of NumPy, modules must be compiled with NumPy 2.0.\n",
    )
    assert found is not None and found.entry.id == "numpy-abi-mismatch"
    assert found.fields["numpy_version"] == "2.0.0"


def test_fields_name_what_to_look_at(matcher: Matcher) -> None:
    found = matcher.match(
        "OSError", "libcudnn.so.8: cannot open shared object file: No such file or directory"
    )
    assert found is not None and found.entry.id == "cuda-library-not-found"
    assert (found.fields["library"], found.fields["version"]) == ("cudnn", ".8")
    found = matcher.match(
        "ImportError",
        "/x/site-packages/jaxlib/xla_extension.so: undefined symbol: cublasGetStatusString",
    )
    assert found is not None and found.fields["symbol"] == "cublasGetStatusString"


@pytest.mark.parametrize(
    ("exception", "message"),
    [
        # Other packages' DLLs and shared objects, and other packages' missing names.
        (
            "ImportError",
            "DLL load failed while importing _C: The specified module could not be found.",
        ),
        ("ImportError", "DLL load failed while importing utilsextension"),
        (
            "ImportError",
            "libtorch_cuda.so: cannot open shared object file: No such file or directory",
        ),
        (
            "ImportError",
            "/usr/lib/python3/dist-packages/_XLAC.cpython-37m-x86_64-linux-gnu.so: undefined symbol: _ZN2at5empty",
        ),
        ("ImportError", "cannot import name 'stax' from 'jax'"),
        ("ModuleNotFoundError", "No module named 'jaxlib'"),
        # Python 3.6's words without a module, of a name that is not XLA's.
        ("ImportError", "cannot import name 'version'"),
    ],
)
def test_look_alikes_stay_away(exception: str, message: str, matcher: Matcher) -> None:
    # No pattern or template of the new entries claims them; the fuzzy fallback may still offer
    # a close text as a guess (score below 100), as it does for every entry.
    found = matcher.match(exception, message)
    assert found is None or found.entry.id not in NEW or found.score < 100, (
        message,
        found and found.entry.id,
    )


def test_the_explanation_states_what_the_message_named(matcher: Matcher) -> None:
    """An entry's prose names its fields (`{module}.so`, `{symbol}`); explained, it says the
    values this paste printed, the catalog page keeps the names."""
    text = next(t for u, t, _ in PASTES if u == "https://github.com/jax-ml/jax/issues/11729")
    [explained] = explain_text(text, matcher)
    assert explained.match is not None
    meaning = explained.match.entry.meaning
    assert "`xla_extension.so`" in meaning and "`cublasGetStatusString`" in meaning
    assert "{symbol}" in CATALOG.get("jaxlib-undefined-symbol").meaning  # type: ignore[union-attr]
