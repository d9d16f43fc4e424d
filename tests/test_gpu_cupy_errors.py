"""CuPy's gaps found on a GPU, checked on the CPU: the CuPy code path with NumPy standing in for CuPy.

The NumPy-like adapter built for ``"cupy"`` over NumPy runs every CuPy branch
(``CupyCompat``, the CuPy-only paths); a fake ``cupy.cuda.Device``
takes device ids as CuPy's does, and CuPy's behaviours that NumPy lacks
(wrapped-around indices, its ufuncs' "Wrong type" error, its ``arange`` and
``linspace``) are played where a test needs them.  The same checks run on the
real CuPy where a GPU is there (``backend`` ``"cupy"``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator
from functools import partial
from types import ModuleType
from typing import Any, ClassVar

import array_api_compat.numpy
import numpy as np
import pytest

import promo_ns
from promo_ns._convert import _kernel_error
from promo_ns._namespace import API_VERSION, Namespace
from promo_ns.backends import _cupy_gaps
from promo_ns.backends._cupy_compat import CupyCompat
from promo_ns.backends.numpylike import NumpyLike
from promo_ns.policies import get_policy
from tests.backends import _GPU, to_numpy

_CUPY = [p for p in _GPU if p.values[0] == "cupy"]


class _Device:
    """``cupy.cuda.Device`` on a machine with one GPU: an ``int()`` id; entering another is CUDA's error."""

    entered: ClassVar[list[int]] = []

    def __init__(self, device: Any = None) -> None:
        self.id = 0 if device is None else int(device)

    def __enter__(self) -> _Device:
        if self.id != 0:
            raise RuntimeError("cudaErrorInvalidDevice: invalid device ordinal")
        _Device.entered.append(self.id)
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class _FakeCupy(ModuleType):
    """NumPy as ``cupy``, with a ``cuda.Device``."""

    def __init__(self) -> None:
        super().__init__("numpy")
        self.cuda = ModuleType("cupy.cuda")
        self.cuda.Device = _Device  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> Any:
        return getattr(np, name)


def _standin(policy: str = "array-api", patch: Callable[[NumpyLike], None] | None = None) -> Any:
    """A namespace over the CuPy adapter with NumPy standing in for CuPy."""
    backend = NumpyLike("cupy", module="numpy")
    backend.compat = CupyCompat(array_api_compat.numpy, _FakeCupy())
    if patch is not None:
        patch(backend)
    return Namespace(backend, get_policy(policy), None, "promo_ns.cupy-standin", API_VERSION)


@pytest.fixture(params=["standin", *_CUPY])
def cupy_ns(request: pytest.FixtureRequest) -> Iterator[Callable[[str], Any]]:
    """A function: policy -> the CuPy namespace (the stand-in, or the real one on a GPU)."""
    if request.param == "standin":
        yield _standin
    else:
        yield lambda policy: promo_ns.namespace("cupy", policy=policy)


# -- a kernel CuPy has no loop for: promo_ns's TypeError --------------------------------------------


def _wrong_type(name: str) -> Callable[..., Any]:
    def ufunc(*args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"Wrong type (int32) of arguments for cupy_{name}")

    return ufunc


def test_cupys_no_loop_error_is_promo_ns_no_kernel_error() -> None:
    error = _kernel_error(
        promo_ns.numpy, "copysign", TypeError("Wrong type (int32) of arguments for cupy_copysign"), []
    )
    assert isinstance(error, TypeError)
    assert "has no 'copysign' kernel" in str(error) and "Cast the operands explicitly first" in str(error)


def test_a_cell_cupy_has_no_kernel_for_is_promo_ns_type_error() -> None:
    def patch(backend: NumpyLike) -> None:
        backend._ufunc["copysign"] = _wrong_type("copysign")
        compat: Any = backend.compat
        compat.bitwise_invert = _wrong_type("invert")

    xp = _standin("paddle", patch)
    x = xp.asarray([1, 2, 3], dtype=xp.int32)
    for other in (-1, xp.asarray([1, -1, 1], dtype=xp.int32)):
        with pytest.raises(TypeError, match=r"has no 'copysign' kernel .*Cast the operands explicitly first"):
            xp.copysign(x, other)
    with pytest.raises(TypeError, match="cupy has no 'bitwise_invert' kernel for float32"):
        ~xp.asarray([1.5], dtype=xp.float32)


# -- devices ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["ones", "zeros", "empty", "eye", "full", "arange", "linspace", "fft.fftfreq", "fft.rfftfreq"]
)
def test_creation_runs_on_its_device_and_refuses_no_device(name: str) -> None:
    xp = _standin()
    args: dict[str, tuple[Any, ...]] = {"full": (2, 1.0), "arange": (3,), "linspace": (0, 1, 3)}
    owner, _, short = name.rpartition(".")
    create = getattr(getattr(xp, owner) if owner else xp, short)
    name = short
    with pytest.raises(ValueError, match=f"{name}\\(\\): 'nowhere' is no device of the cupy backend"):
        create(*args.get(name, (2,)), device="nowhere")
    with pytest.raises(ValueError, match="is no device of the cupy backend"):
        create(*args.get(name, (2,)), device=1)  # an id past the GPUs: CUDA's error
    _Device.entered.clear()
    create(*args.get(name, (2,)), device=0)
    assert _Device.entered == [0]


@pytest.mark.parametrize("name", ["ones_like", "zeros_like", "empty_like", "full_like"])
def test_creation_like_runs_on_its_device(name: str) -> None:
    xp = _standin()
    x = xp.asarray([1.0, 2.0])
    create = getattr(xp, name)
    extra = (2.0,) if name == "full_like" else ()
    with pytest.raises(ValueError, match="'nowhere' is no device of the cupy backend"):
        create(x, *extra, device="nowhere")
    _Device.entered.clear()
    create(x, *extra, device=0)
    assert _Device.entered == [0]


# -- NumPy's values where CuPy's differ -------------------------------------------------------------


def _cupys_arange(start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, **kw: Any) -> Any:
    """CuPy's arange: the length NumPy's, the values stepping by ``step`` cast to the dtype."""
    if stop is None:
        start, stop = 0, start
    n = max(0, math.ceil((stop - start) / step))
    typ = np.dtype(dtype).type
    return typ(start) + np.arange(n) * typ(step)


def _cupys_linspace(start: Any, stop: Any, num: int, **kw: Any) -> Any:
    float(stop - start)  # CuPy's _linspace_scalar: a complex bound is its TypeError
    return np.linspace(start, stop, num, **kw)


@pytest.mark.parametrize(
    ("policy", "call"),
    [
        ("numpy", lambda xp: xp.arange(5, 1, -1.5, dtype=xp.int32)),
        ("numpy", lambda xp: xp.arange(0, 2, 0.5, dtype=xp.int8)),
        ("numpy", lambda xp: xp.arange(3.5, dtype=xp.int64)),
        ("numpy", lambda xp: xp.arange(-2.5, 4, 2, dtype=xp.int16)),
        ("numpy", lambda xp: xp.linspace(0, 1 + 1j, 3, dtype=xp.bool)),
        ("pytorch", lambda xp: xp.linspace(0, 1 + 1j, 3, dtype=xp.float32)),
        ("numpy", lambda xp: xp.linspace(-1j, 2 + 1j, 5, endpoint=False)),
        ("numpy", lambda xp: xp.linspace(1 + 1j, -2.0, 4, dtype=xp.complex64)),
        ("numpy", lambda xp: xp.vecdot(xp.asarray([[True, False]]), xp.asarray([[False, True]]))),
        (
            "numpy",
            lambda xp: xp.linalg.vecdot(xp.asarray([[True, True], [False, True]]), xp.asarray([True, True])),
        ),
        (
            "numpy",
            lambda xp: xp.vecdot(
                xp.asarray([[True], [False]]), xp.asarray([[True, False, True], [True, True, False]]), axis=0
            ),
        ),
    ],
)
def test_outcome_is_numpy_backends(policy: str, call: Callable[[Any], Any]) -> None:
    def like_cupy(backend: NumpyLike) -> None:
        compat: Any = backend.compat
        compat.arange = partial(_cupy_gaps.arange, compat._module, _cupys_arange)
        compat.linspace = partial(_cupy_gaps.linspace, compat._module, _cupys_linspace)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's ComplexWarning of complex bounds into a real dtype
        want = call(promo_ns.namespace("numpy", policy=policy))
        got = call(_standin(policy, like_cupy))
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(to_numpy(got), to_numpy(want)), (to_numpy(got), to_numpy(want))


def test_cupys_vecdot_of_bools_is_checked_like_compats() -> None:
    xp = _standin("numpy")
    with pytest.raises(ValueError, match="same size along axis -1"):
        xp.vecdot(xp.asarray([[True, False]]), xp.asarray([[True, False, True]]))


# -- indices out of bounds: CuPy wraps them around ---------------------------------------------------


class _WrapsAround(np.ndarray):
    """A NumPy array indexed as CuPy's: integer array indices of the first axis wrap around."""

    def __setitem__(self, key: Any, value: Any) -> None:
        np.asarray(self)[np.asarray(key) % self.shape[0]] = value

    def __getitem__(self, key: Any) -> Any:
        return np.asarray(self)[np.asarray(key) % self.shape[0]]


@pytest.mark.parametrize("key", [[0, 5], [-4], [1, 3, 0]], ids=repr)
def test_an_index_out_of_bounds_is_an_index_error_before_cupy_writes(key: list[int]) -> None:
    backend = NumpyLike("cupy", module="numpy")
    x = np.asarray([1, 2, 3]).view(_WrapsAround)
    for index in (key, np.asarray(key)):
        with pytest.raises(IndexError, match=r"setitem: index -?\d is out of bounds for axis 0 with size 3"):
            backend.setitem(x, index, 9)
        assert np.asarray(x).tolist() == [1, 2, 3]
        with pytest.raises(IndexError, match=r"getitem: index -?\d is out of bounds for axis 0 with size 3"):
            backend.getitem(x, index)


@pytest.mark.parametrize(
    ("shape", "key", "axis"),
    [
        ((2, 3), (slice(None), np.asarray([0, 3])), 1),
        ((2, 3), (Ellipsis, np.asarray([-4])), 1),
        ((2, 3), (None, 1, np.asarray([3])), 1),
        ((2, 3, 4), (np.asarray([[True, False, True], [False, False, True]]), np.asarray([4])), 2),
        ((2, 3, 4), (np.asarray([2]), Ellipsis, 0), 0),
    ],
)
def test_the_axis_of_an_index_out_of_bounds_is_named(shape: tuple[int, ...], key: Any, axis: int) -> None:
    x = np.zeros(shape)
    with pytest.raises(IndexError, match=f"out of bounds for axis {axis} with size {shape[axis]}"):
        _cupy_gaps.check_index_bounds("setitem", x, key)
    with pytest.raises(IndexError, match="out of bounds"):
        x[key]  # NumPy's own word on the same key


@pytest.mark.parametrize(
    "key",
    [np.asarray([0, -3, 2]), [True, False, True], (np.asarray([True, False]), np.asarray([2])), (1, [0, 2])],
    ids=repr,
)
def test_an_index_in_bounds_passes(key: Any) -> None:
    x = np.zeros((3, 3))[:2] if isinstance(key, tuple) else np.zeros(3)
    _cupy_gaps.check_index_bounds("setitem", x, key)
    x[key] = 1  # NumPy agrees


def test_out_of_bounds_setitem_leaves_the_operand(cupy_ns: Callable[[str], Any]) -> None:
    xp = cupy_ns("array-api")
    x = xp.asarray([1, 2, 3])
    with pytest.raises(IndexError, match="out of bounds"):
        x[xp.asarray([0, 5])] = 9
    with pytest.raises(IndexError, match="out of bounds"):
        x[xp.asarray([-4])]
    assert to_numpy(x).tolist() == [1, 2, 3]
    y = xp.zeros((2, 2), dtype=xp.uint8)
    y[xp.asarray([[True, False], [False, True]])] = 1
    with pytest.raises(IndexError, match="out of bounds"):
        y[xp.asarray([0, 2])] = 0
    assert to_numpy(y).tolist() == [[1, 0], [0, 1]]


# -- bfloat16 --------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", _CUPY)
def test_cupy_refuses_bfloat16_by_name(backend: str) -> None:
    xp = promo_ns.namespace(backend, policy="pytorch")
    calls: tuple[Callable[[], Any], ...] = (
        lambda: xp.zeros(4, dtype=xp.bfloat16),
        lambda: xp.asarray([1.0], dtype=xp.bfloat16),
        lambda: xp.full((2,), 1.5 + 0.5j, dtype=xp.bfloat16),
        lambda: xp.astype(xp.asarray([1.0]), xp.bfloat16),
    )
    for call in calls:
        with pytest.raises(TypeError, match="the cupy backend has no bfloat16 dtype; use float32"):
            call()
