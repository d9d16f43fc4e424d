"""Arguments that are not data get one outcome on every backend: the NumPy backend's, in promo_ns's words.

The libraries disagree on a repeated axis (NumPy's ValueError, torch's
RuntimeError, Dask's ``sum`` taking it), on ``tril`` of a vector (NumPy
broadcasts it), on a float ``k`` (NumPy and Dask take it), on ``meshgrid`` of
a matrix (NumPy flattens it), on NaN and infinite ``arange`` bounds and on
``cumulative_sum`` of a 0-d array.  The repeated-axis cases are generated from
every namespace function with an axis parameter; the others are listed per
rule of ``promo_ns._functions._arguments``, and a test checks that each rule has
its function's signature.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

import array_api_strict
import numpy as np
import pytest

from promo_ns._functions._arguments import RULES
from promo_ns._functions._common import _ONE_AXIS
from tests.backends import BACKENDS, has_values, namespace, to_numpy

#: name -> the call on a namespace.
CASES: dict[str, Callable[[Any], Any]] = {
    "tril-vector": lambda xp: xp.tril(xp.asarray([1, 2, 3])),
    "tril-0d": lambda xp: xp.tril(xp.asarray(1)),
    "triu-float-k": lambda xp: xp.triu(xp.ones((3, 3)), k=1.5),
    "tril-str-k": lambda xp: xp.tril(xp.ones((3, 3)), k="1"),
    "tril-bool-k": lambda xp: xp.tril(xp.ones((3, 3)), k=True),
    "tril-numpy-int-k": lambda xp: xp.tril(xp.ones((3, 3)), k=np.int64(-1)),
    "triu-stack": lambda xp: xp.triu(xp.ones((2, 3, 3)), k=1),
    "eye-float-k": lambda xp: xp.eye(3, k=1.0),
    "eye-float-rows": lambda xp: xp.eye(3.0),
    "eye-bool-rows": lambda xp: xp.eye(True),
    "eye-bool-cols": lambda xp: xp.eye(2, False),
    "eye-numpy-int": lambda xp: xp.eye(np.int64(2), np.int32(3), k=np.int8(1)),
    "diff-0d": lambda xp: xp.diff(xp.asarray(1.0)),
    "diff-0d-n0": lambda xp: xp.diff(xp.asarray(1.0), n=0),
    "diff-negative-n": lambda xp: xp.diff(xp.ones(3), n=-1),
    "diff-float-n": lambda xp: xp.diff(xp.ones(3), n=1.0),
    "diff-zero-n": lambda xp: xp.diff(xp.ones(3), n=0),
    "meshgrid-matrix": lambda xp: xp.meshgrid(xp.ones((2, 2)), xp.ones(3)),
    "meshgrid-0d": lambda xp: xp.meshgrid(xp.asarray(1.0), xp.ones(2)),
    "meshgrid-indexing": lambda xp: xp.meshgrid(xp.ones(2), indexing="zz"),
    "meshgrid-ij": lambda xp: xp.meshgrid(xp.ones(2), xp.zeros(3), indexing="ij"),
    "arange-nan": lambda xp: xp.arange(float("nan")),
    "arange-inf-stop": lambda xp: xp.arange(0, float("inf")),
    "arange-inf-step": lambda xp: xp.arange(0, 5, float("-inf")),
    "arange-complex": lambda xp: xp.arange(1j),
    "arange-uint64-top": lambda xp: xp.arange(2**64 - 3, 2**64 - 1, dtype=xp.uint64),
    "arange-uint64-across": lambda xp: xp.arange(2**63 - 2, 2**63 + 3, 2, dtype=xp.uint64),
    "arange-uint64-down": lambda xp: xp.arange(2**64 - 1, 2**63, -(2**62), dtype=xp.uint64),
    # found in review: float bounds into an integer dtype wrapped on torch and JAX (NumPy: OverflowError)
    "arange-float-bounds-below-uint8": lambda xp: xp.arange(-1.5, 3.0, 1, dtype=xp.uint8),
    "arange-float-bounds-past-int8": lambda xp: xp.arange(127.5, 130.0, 1, dtype=xp.int8),
    "arange-float-bounds-past-int64": lambda xp: xp.arange(0.0, 1.8e19, 1e19, dtype=xp.int64),
    "arange-float-bounds-in-int8": lambda xp: xp.arange(0.5, 3.0, 1, dtype=xp.int8),
    "cumulative_sum-0d": lambda xp: xp.cumulative_sum(xp.asarray(1)),
    "cumulative_sum-0d-initial": lambda xp: xp.cumulative_sum(xp.asarray(3), include_initial=True),
    "cumulative_prod-0d": lambda xp: xp.cumulative_prod(xp.asarray(2.0)),
    "cumulative_sum-0d-axis": lambda xp: xp.cumulative_sum(xp.asarray(1), axis=0),
    "sum-axis-negative-twice": lambda xp: xp.sum(xp.ones((2, 2)), axis=(0, -2)),
    "permute_dims-twice": lambda xp: xp.permute_dims(xp.ones((2, 2)), (0, 0)),
    "moveaxis-twice": lambda xp: xp.moveaxis(xp.ones((2, 2, 2)), (0, 0), (1, 2)),
    "roll-twice": lambda xp: xp.roll(xp.reshape(xp.arange(4), (2, 2)), (1, 1), axis=(0, 0)),
    # values past what the backends take, of the same meaning: torch overflowed, JAX wrapped, loops hung
    "triu-k-past-int64": lambda xp: xp.triu(xp.reshape(xp.arange(12), (3, 4)), k=2**63),
    "tril-k-below-int64": lambda xp: xp.tril(xp.reshape(xp.arange(12), (3, 4)), k=-(10**19)),
    "tril-k-uint64": lambda xp: xp.tril(xp.reshape(xp.arange(12), (3, 4)), k=np.uint64(2**63)),
    "tril-k-past-corner": lambda xp: xp.tril(xp.reshape(xp.arange(12), (3, 4)), k=7),
    "diff-n-huge": lambda xp: xp.diff(xp.arange(5), n=10**20),
    "diff-n-past-length-ends": lambda xp: xp.diff(xp.arange(5), n=10**5, prepend=xp.asarray([1])),
    "diff-n-length": lambda xp: xp.diff(xp.reshape(xp.arange(6), (2, 3)), n=3, axis=1),
    "permute_dims-too-few": lambda xp: xp.permute_dims(xp.ones((2, 3)), ()),
    "reshape-wrong-size": lambda xp: xp.reshape(xp.ones((3, 4)), (5, -1)),
    "reshape-two-unknown": lambda xp: xp.reshape(xp.ones((3, 4)), (-1, -1)),
    "reshape-negative": lambda xp: xp.reshape(xp.ones((3, 4)), (-2, -6)),
    # no axes roll nothing, as in NumPy (torch rolled the flattened array, Dask raised its ValueError)
    # found in review: NumPy took 2.0 and True as counts, JAX's refusal of 2.0 broke repeat(x, 2) after it,
    # and JAX took a negative count in an array as none
    "repeat-float-count": lambda xp: xp.repeat(xp.asarray([7, 8]), 2.0),
    "repeat-bool-count": lambda xp: xp.repeat(xp.asarray([7, 8]), True),
    "repeat-negative-count": lambda xp: xp.repeat(xp.asarray([7, 8]), -1),
    "repeat-huge-count": lambda xp: xp.repeat(xp.asarray([7, 8]), 2**63),
    "repeat-2d-counts": lambda xp: xp.repeat(xp.asarray([7, 8]), xp.asarray([[1, 2]])),
    "repeat-float-counts": lambda xp: xp.repeat(xp.asarray([7, 8]), xp.asarray([1.0, 2.0])),
    "searchsorted-float-sorter": lambda xp: xp.searchsorted(
        xp.asarray([3.0, 1.0]), xp.asarray([2.0]), sorter=xp.asarray([1.0, 0.0])
    ),
    "roll-no-axes": lambda xp: xp.roll(xp.asarray([1, 2, 3]), 1, axis=()),
    "roll-no-axes-one-shift": lambda xp: xp.roll(xp.reshape(xp.arange(6), (2, 3)), shift=(1,), axis=()),
    "roll-no-axes-0d": lambda xp: xp.roll(xp.asarray(5), 2, axis=()),
    "roll-no-axes-two-shifts": lambda xp: xp.roll(xp.asarray([1, 2, 3]), (1, 2), axis=()),
    "reshape-unknown": lambda xp: xp.reshape(xp.ones((3, 4)), (2, -1, 3)),
    "fftshift-no-axes": lambda xp: xp.fft.fftshift(xp.reshape(xp.arange(6.0), (2, 3)), axes=()),
    "ifftshift-no-axes": lambda xp: xp.fft.ifftshift(xp.reshape(xp.arange(6.0), (2, 3)), axes=()),
    "count_nonzero-no-axes": lambda xp: xp.count_nonzero(xp.asarray([[0, 1, 2], [3, 0, 5]]), axis=()),
    "count_nonzero-no-axes-keepdims": lambda xp: xp.count_nonzero(xp.ones((2, 3)), axis=(), keepdims=True),
    "arange-too-many": lambda xp: xp.arange(2**63),
    "arange-float-too-many": lambda xp: xp.arange(0, 1e20),
    "arange-int-past-floats": lambda xp: xp.arange(0, 10**400, 1.0),
    "arange-tiny-step": lambda xp: xp.arange(0, 10, 1e-20),
    "arange-step-none": lambda xp: xp.arange(0, 5, None),
    "arange-start-none": lambda xp: xp.arange(None, dtype=xp.float32),
    "arange-int64-wide-step": lambda xp: xp.arange(0, 2**63 - 1, 2**62),
    "arange-float64-past-int64": lambda xp: xp.arange(2**63, 2**63 + 3, dtype=xp.float64),
    "arange-float64-past-int64-step": lambda xp: xp.arange(2**63, 2**63 + 9000, 4096, dtype=xp.float64),
    "arange-float64-below-int64": lambda xp: xp.arange(-(2**63) - 10, -(2**63), dtype=xp.float64),
    "arange-int64-whole-range": lambda xp: xp.arange(-(2**63), 2**63 - 1, 2**62),
    # found in review: torch counted in floats (10**17 to 10**17 + 4: no values) and spaced every value
    # from the first (the second of 2**63 - 2 by -2**63 was 0.0, NumPy's -2.0)
    "arange-float64-past-exact-ints": lambda xp: xp.arange(10**17, 10**17 + 4, dtype=xp.float64),
    "arange-float32-past-exact-ints": lambda xp: xp.arange(2**53, 2**53 + 3, dtype=xp.float32),
    "arange-float64-second-value": lambda xp: xp.arange(2**63 - 2, -(2**63), -(2**63), dtype=xp.float64),
    "asarray-bytes-dtype": lambda xp: xp.asarray(b"abc", dtype=xp.int8),
    "asarray-str-dtype": lambda xp: xp.asarray("1", dtype=xp.float64),
    "asarray-nested-ndarrays": lambda xp: xp.asarray([np.ones(2, np.uint8), np.ones(2, np.uint8)]),
    "asarray-nested-bytearrays": lambda xp: xp.asarray([bytearray(2), bytearray(2)]),
    "asarray-nested-0d-ndarray": lambda xp: xp.asarray([np.asarray(3, dtype=np.int8), 1]),
    "asarray-nested-bytes": lambda xp: xp.asarray([b"ab"], dtype=xp.int8),
}


def _outcome(xp: Any, call: Callable[[Any], Any]) -> tuple[str, Any]:
    """``("error", (class name, message))`` or ``("result", [(dtype, shape, values or None), ...])``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = call(xp)
            parts = out if isinstance(out, (tuple, list)) else (out,)
            values = has_values(xp)
            return "result", [
                (str(p.dtype), tuple(p.shape), to_numpy(p).tolist() if values else None) for p in parts
            ]
    except Exception as e:
        return "error", (type(e).__name__, str(e))


def _same(got: tuple[str, Any], want: tuple[str, Any]) -> None:
    assert got[0] == want[0], (got, want)
    if got[0] == "error":
        assert got[1] == want[1]  # promo_ns's class and words, not a library's
        return
    for (dtype, shape, values), (w_dtype, w_shape, w_values) in zip(got[1], want[1], strict=True):
        assert (dtype, shape) == (w_dtype, w_shape)
        assert values is None or values == w_values


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", list(CASES))
def test_outcome_is_the_numpy_backends(backend: str, case: str) -> None:
    want = _outcome(namespace("numpy"), CASES[case])
    _same(_outcome(namespace(backend), CASES[case]), want)


def test_the_refusals_are_promo_ns_s() -> None:
    """Where the NumPy backend refuses, it is in promo_ns's words (NumPy's own would not hold for torch)."""
    xp = namespace("numpy")
    words = {
        "tril-vector": "at least 2 dimensions",
        "triu-float-k": "k must be an int",
        "tril-bool-k": "k must be an int",
        "eye-float-k": "k must be an int",
        "diff-negative-n": "must be >= 0",
        "meshgrid-matrix": "takes 1-d arrays",
        "meshgrid-indexing": "'xy' or 'ij'",
        "arange-nan": "must be finite",
        "arange-complex": "must be a Python int or float",
        "sum-axis-negative-twice": "names an axis twice",
        "permute_dims-twice": "names an axis twice",
    }
    for case, word in words.items():
        kind, (_, message) = _outcome(xp, CASES[case])
        assert kind == "error" and word in message, (case, message)


#: Functions whose axis arguments are not a set of axes: roll's pair with shifts, tensordot's are two.
_NOT_AXES = _ONE_AXIS | {"roll", "tensordot"}


def _tuple_axis_functions() -> list[tuple[str, str]]:
    """(function, parameter) of every namespace function taking a tuple of axes (called by keyword)."""
    xp = namespace("numpy")
    found = []
    for owner, prefix in ((xp, ""), (xp.linalg, "linalg."), (xp.fft, "fft.")):
        for name in dir(owner):
            fn = getattr(owner, name)
            if name.startswith("_") or not callable(fn) or name in _NOT_AXES:
                continue
            try:
                parameters = inspect.signature(fn).parameters
            except (TypeError, ValueError):
                continue
            for p in ("axis", "axes"):
                if p in parameters and parameters[p].kind is not inspect.Parameter.POSITIONAL_ONLY:
                    found.append((prefix + name, p))
    return found


TUPLE_AXES = _tuple_axis_functions()


def test_the_generated_cases_cover_the_reductions() -> None:
    names = {name for name, _ in TUPLE_AXES}
    assert {"sum", "prod", "mean", "std", "var", "max", "min", "all", "any", "flip"} <= names, names


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("name", "parameter"), TUPLE_AXES)
def test_a_repeated_axis_is_one_value_error(backend: str, name: str, parameter: str) -> None:
    xp = namespace(backend)
    owner, _, short = name.rpartition(".")
    fn = getattr(getattr(xp, owner) if owner else xp, short)
    x = xp.ones((1, 1, 1), dtype=xp.complex128 if owner == "fft" else xp.float64)
    with pytest.raises(ValueError, match="names an axis twice"):
        fn(x, **{parameter: (0, 0)})


def _shape(fn: Callable[..., Any]) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("name", sorted(RULES))
def test_each_rule_has_the_standards_signature(name: str) -> None:
    """It takes what the standard's function takes (array-api-strict's signature): no valid call refused."""
    assert _shape(RULES[name]) == _shape(getattr(array_api_strict, name))


@pytest.mark.parametrize("backend", BACKENDS)
def test_read_only_data_is_never_written_through(backend: str) -> None:
    """A write to an array made of read-only data changes that data on no backend (torch's tensors are
    all writable: it copies), by ``asarray`` or ``from_dlpack``."""
    xp = namespace(backend)
    data = bytes(8)
    frozen = np.arange(4.0)
    frozen.flags.writeable = False
    makers: list[Callable[[], Any]] = [
        lambda: xp.asarray(memoryview(data)),
        lambda: xp.asarray(frozen),
        lambda: xp.from_dlpack(frozen),
    ]
    for made in makers:
        try:
            a = made()
            a[0] = 7
            a += 1
        except (ValueError, TypeError, BufferError):  # NumPy's read-only array, JAX's export of one
            pass
    assert data == bytes(8)
    assert frozen.tolist() == [0.0, 1.0, 2.0, 3.0]
