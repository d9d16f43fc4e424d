"""Refusals that are not about promotion but part of what a framework accepts, against the live framework."""

from __future__ import annotations

from typing import Any

import pytest
import torch

import promo_ns
from tests.backends import BACKENDS, namespace

_TORCH_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"]
_SCALARS: list[Any] = [True, 1, 1.5, 1 + 1j]


def _torch_refuses(f: Any) -> bool:
    try:
        f()
    except RuntimeError:
        return True
    return False


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("other", [*_TORCH_DTYPES, "scalar"])
def test_pytorch_refuses_subtraction_with_a_bool_operand_like_torch(backend: str, other: str) -> None:
    xp = namespace(backend, "pytorch")
    b = xp.asarray([True, False])
    tb = torch.tensor([True, False])
    if other == "scalar":
        cases = [(s, torch_s) for s, torch_s in zip(_SCALARS, _SCALARS, strict=True)]
    else:
        cases = [(xp.ones(2, dtype=getattr(xp, other)), torch.ones(2, dtype=getattr(torch, other)))]
    for x, tx in cases:
        assert _torch_refuses(lambda tx=tx: tb - tx)
        assert _torch_refuses(lambda tx=tx: tx - tb)
        with pytest.raises(promo_ns.PromotionError, match="subtract"):
            b - x
        with pytest.raises(promo_ns.PromotionError, match="subtract"):
            x - b
    ints = xp.asarray([1, 2], dtype=xp.int8)
    assert _torch_refuses(lambda: torch.tensor([1, 2], dtype=torch.int8) - True)
    with pytest.raises(promo_ns.PromotionError, match=r"takes no Python bool here; pass True as an int"):
        ints - True
    assert (ints - 1).dtype == xp.int8  # subtraction itself is fine
    with pytest.raises(promo_ns.PromotionError):
        xp.subtract(b, b)


@pytest.mark.parametrize("backend", BACKENDS)
def test_numpy_refuses_bool_minus_bool_like_numpy(backend: str) -> None:
    import numpy as np

    xp = namespace(backend, "numpy")
    b = xp.asarray([True, False])
    assert (b - 1).dtype == xp.int64
    assert (b - xp.ones(2, dtype=xp.int8)).dtype == xp.int8
    for other, native in ((b, np.array([True, False])), (True, True)):
        with pytest.raises(TypeError):
            np.array([True, False]) - native
        with pytest.raises(promo_ns.PromotionError, match="subtract"):
            b - other
