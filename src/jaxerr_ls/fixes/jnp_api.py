"""The public names of `jax.numpy` (and its linalg/fft), read statically from JAX's source.

The server never imports JAX: when JAX is installed next to us its `jax/numpy/*.py` files are read
with `ast` once; otherwise the names below (JAX 0.10.2, produced by `exported_names`) are used.
"""

from __future__ import annotations

import ast
import importlib.util
from functools import lru_cache
from pathlib import Path

_BUNDLED = {
    "": """
    ComplexWarning abs absolute acos acosh add all allclose amax amin angle any append
    apply_along_axis apply_over_axes arange arccos arccosh arcsin arcsinh arctan arctan2
    arctanh argmax argmin argpartition argsort argwhere around array array_equal array_equiv
    array_repr array_split array_str asarray asin asinh astype atan atan2 atanh atleast_1d
    atleast_2d atleast_3d average bartlett bfloat16 bincount bitwise_and bitwise_count
    bitwise_invert bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor
    blackman block bool bool_ broadcast_arrays broadcast_shapes broadcast_to c_ can_cast cbrt
    cdouble ceil character choose clip column_stack complex128 complex64 complex_
    complexfloating compress concat concatenate conj conjugate convolve copy copysign corrcoef
    correlate cos cosh count_nonzero cov cross csingle cumprod cumsum cumulative_prod
    cumulative_sum deg2rad degrees delete diag diag_indices diag_indices_from diagflat
    diagonal diff digitize divide divmod dot double dsplit dstack dtype e ediff1d einsum
    einsum_path empty empty_like equal euler_gamma exp exp2 expand_dims expm1 extract eye fabs
    fft fill_diagonal finfo flatnonzero flexible flip fliplr flipud float16 float32
    float4_e2m1fn float64 float6_e2m3fn float6_e3m2fn float8_e3m4 float8_e4m3
    float8_e4m3b11fnuz float8_e4m3fn float8_e4m3fnuz float8_e5m2 float8_e5m2fnuz
    float8_e8m0fnu float_ float_power floating floor floor_divide fmax fmin fmod frexp
    from_dlpack frombuffer fromfile fromfunction fromiter frompyfunc fromstring full full_like
    gcd generic geomspace get_printoptions gradient greater greater_equal hamming hanning
    heaviside histogram histogram2d histogram_bin_edges histogramdd hsplit hstack hypot i0
    identity iinfo imag index_exp indices inexact inf inner insert int16 int2 int32 int4 int64
    int8 int_ integer interp intersect1d invert isclose iscomplex iscomplexobj isdtype
    isfinite isin isinf isnan isneginf isposinf isreal isrealobj isscalar issubdtype iterable
    ix_ kaiser kron lcm ldexp left_shift less less_equal lexsort linalg linspace load log
    log10 log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or logical_xor
    logspace mask_indices matmul matrix_transpose matvec max maximum mean median meshgrid
    mgrid min minimum mod modf moveaxis multiply nan nan_to_num nanargmax nanargmin nancumprod
    nancumsum nanmax nanmean nanmedian nanmin nanpercentile nanprod nanquantile nanstd nansum
    nanvar ndarray ndim negative newaxis nextafter nonzero not_equal number object_ ogrid ones
    ones_like outer packbits pad partition percentile permute_dims pi piecewise place poly
    polyadd polyder polydiv polyfit polyint polymul polysub polyval positive pow power
    printoptions prod promote_types ptp put put_along_axis quantile r_ rad2deg radians ravel
    ravel_multi_index real reciprocal remainder repeat reshape resize result_type right_shift
    rint roll rollaxis roots rot90 round s_ save savez searchsorted select set_printoptions
    setdiff1d setxor1d shape sign signbit signedinteger sin sinc single sinh size sort
    sort_complex spacing split sqrt square squeeze stack std subtract sum swapaxes take
    take_along_axis tan tanh tensordot tile trace transpose trapezoid tri tril tril_indices
    tril_indices_from trim_zeros triu triu_indices triu_indices_from true_divide trunc ufunc
    uint uint16 uint2 uint32 uint4 uint64 uint8 union1d unique unique_all unique_counts
    unique_inverse unique_values unpackbits unravel_index unsignedinteger unstack unwrap
    vander var vdot vecdot vecmat vectorize vsplit vstack where zeros zeros_like
""",
    "linalg": """
    cholesky cond cross det diagonal eig eigh eigvals eigvalsh inv lstsq matmul matrix_norm
    matrix_power matrix_rank matrix_transpose multi_dot norm outer pinv qr slogdet solve svd
    svdvals tensordot tensorinv tensorsolve trace vecdot vector_norm
""",
    "fft": """
    fft fft2 fftfreq fftn fftshift hfft ifft ifft2 ifftn ifftshift ihfft irfft irfft2 irfftn
    rfft rfft2 rfftfreq rfftn
""",
}


def exported_names(path: Path) -> frozenset[str]:
    """Names a module file exports: `from x import a as a`, defs and assignments, no `_` names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom):
            names.update(alias.asname for alias in stmt.names if alias.asname)
        elif isinstance(stmt, ast.FunctionDef):
            names.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return frozenset(name for name in names if not name.startswith("_"))


def _installed_dir() -> Path | None:
    try:
        spec = importlib.util.find_spec("jax")  # finds the package without importing it
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "numpy"
    return folder if (folder / "__init__.py").is_file() else None


@lru_cache(maxsize=4)
def jnp_names(submodule: str = "") -> frozenset[str]:
    """Public names of `jax.numpy` ("" ), `jax.numpy.linalg` or `jax.numpy.fft`."""
    folder = _installed_dir()
    if folder is not None:
        path = folder / (f"{submodule}.py" if submodule else "__init__.py")
        try:
            return exported_names(path)
        except (OSError, SyntaxError, ValueError):
            pass
    return frozenset(_BUNDLED.get(submodule, "").split())
