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
    "cumulative_sum-0d": lambda xp: xp.cumulative_sum(xp.asarray(1)),
    "cumulative_sum-0d-initial": lambda xp: xp.cumulative_sum(xp.asarray(3), include_initial=True),
    "cumulative_prod-0d": lambda xp: xp.cumulative_prod(xp.asarray(2.0)),
    "cumulative_sum-0d-axis": lambda xp: xp.cumulative_sum(xp.asarray(1), axis=0),
    "sum-axis-negative-twice": lambda xp: xp.sum(xp.ones((2, 2)), axis=(0, -2)),
    "permute_dims-twice": lambda xp: xp.permute_dims(xp.ones((2, 2)), (0, 0)),
    "moveaxis-twice": lambda xp: xp.moveaxis(xp.ones((2, 2, 2)), (0, 0), (1, 2)),
    "roll-twice": lambda xp: xp.roll(xp.reshape(xp.arange(4), (2, 2)), (1, 1), axis=(0, 0)),
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
