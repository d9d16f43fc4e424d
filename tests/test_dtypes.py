"""Canonical dtypes and their maps to NumPy and PyTorch."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
import torch

import promo_ns._dtypes as D  # noqa: N812


def test_names_and_identity() -> None:
    for d in D.DTYPES:
        assert str(d) == d.name
        assert D.canonical(d.name) is d
        assert pickle.loads(pickle.dumps(d)) is d
        assert copy.deepcopy(d) is d
    assert len({hash(d) for d in D.DTYPES}) == 15


@pytest.mark.parametrize("dtype", D.DTYPES, ids=str)
@pytest.mark.parametrize("module", [np, torch], ids=lambda m: m.__name__)
def test_round_trip_through_backend(dtype: D.DType, module: object) -> None:
    native = D.native(dtype, module)  # type: ignore[arg-type]
    assert D.canonical(native) is dtype


def test_numpy_scalar_types_and_bfloat16() -> None:
    import ml_dtypes

    assert D.canonical(np.float32) is D.float32
    assert D.canonical(ml_dtypes.bfloat16) is D.bfloat16


@pytest.mark.parametrize(
    "native", [np.dtype(object), np.dtype("U3"), torch.float8_e4m3fn, torch.complex32, "float128", 3]
)
def test_unknown_dtypes_raise_clear_type_error(native: object) -> None:
    with pytest.raises(TypeError, match="no canonical promo_ns dtype; promo_ns supports bool, int8"):
        D.canonical(native)


def test_cupy_has_no_bfloat16() -> None:
    import types

    with pytest.raises(TypeError, match="cupy backend has no bfloat16"):
        D.native(D.bfloat16, types.ModuleType("cupy"))
