"""A floating tensor with a Python scalar off the CPU, computed as the policies' rules say (torch's CPU does).

The policies' :attr:`~promo_ns.policies.Policy.float_scalars` rules are
measured on torch's CPU kernels and on NumPy.  torch's CUDA kernels read a
CPU scalar operand (a Python number) otherwise:

- ``add``/``sub`` of float16/bfloat16 (``opmath_symmetric_gpu_kernel_with_scalars``)
  read it at float32 precision: ``x + 0.1`` adds ``float32(0.1)`` where the
  CPU and NumPy add 0.1 rounded to float16 first (14% of float16 sums differ);
- true and floor division by a CPU scalar multiply by its reciprocal
  (``BinaryDivTrueKernel.cu``, ``BinaryDivFloorKernel.cu``: "this may lose one
  bit of precision"), in every floating dtype: float32 ``x / 0.1`` differs
  from IEEE division in 14% of the elements;
- a 0-d tensor on the device is no CPU scalar: the kernel casts it to the
  other operand's dtype, where the CPU's ``mul``/``div``/``div_floor`` read a
  lower 0-d operand at float32 precision (float16 ``x * 0-d int32 100000`` is
  finite there, ``inf`` on CUDA).

Off the CPU (and ``meta``), :func:`as_on_cpu` gives the rule's bits with torch
kernels on the tensor's device: a scalar rounded first is rounded (as the
CPU rounds it) before an ``add``/``sub``, and becomes a 0-d tensor of the
compute dtype on the device for a division; the ``"float32_opmath"`` rule
computes in float32 and rounds once.  No value leaves the device.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import torch

from promo_ns._dtypes import canonical, native
from promo_ns.backends import _torch_numerics as numerics

__all__ = ["OPS", "as_on_cpu", "form", "off_cpu"]

Tensor = torch.Tensor
#: the ops whose CUDA kernels read a scalar operand otherwise than the CPU's, and their symbols.
OPS = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//"}
_SUMS = frozenset(("add", "subtract"))
_REDUCED = frozenset((torch.float16, torch.bfloat16))
_LIKE_CPU = frozenset(("cpu", "meta"))


def form(op: str, *, scalar_first: bool) -> str:
    """The :attr:`~promo_ns.policies.Policy.float_scalars` form of ``op`` (``"x / s"``, ``"s + x"``)."""
    return f"s {OPS[op]} x" if scalar_first else f"x {OPS[op]} s"


def off_cpu(x: Any, y: Any) -> bool:
    """Whether the tensor among ``x`` and ``y`` is on a device other than the CPU and ``meta``."""
    tensor = x if isinstance(x, Tensor) else y
    return tensor.device.type not in _LIKE_CPU


def _rounded(value: float, dtype: torch.dtype) -> float:
    """Python ``value`` rounded to float ``dtype`` as torch's CPU rounds a scalar: through float32.

    (NumPy rounds to float16 once: the pytorch policy's documented deviation;
    a value beyond the range is rounded as a cast rounds it.)
    """
    value = numerics.in_range(float(value), dtype)
    if dtype in _REDUCED:
        value = float(numpy.float32(value))
    return float(numpy.asarray(value, dtype=native(canonical(dtype), numpy)))


def as_on_cpu(
    op: str, fn: Callable[[Any, Any], Any], dtype: torch.dtype, *, opmath: bool
) -> Callable[..., Any]:
    """``fn(x, y)`` (``op`` of :data:`OPS`) in floating ``dtype``, with a Python scalar as the rule reads it.

    Parameters
    ----------
    op
        The op ``fn`` computes.
    fn
        torch's function, taking the operands as they come (tensors of
        ``dtype`` or of a lower class, Python scalars).
    dtype
        The floating dtype the op computes in.
    opmath
        The rule is ``"float32_opmath"`` (a float16/bfloat16 ``dtype``):
        the op computes in float32 with the scalar (or lower 0-d tensor)
        unrounded, then rounds once; else the scalar is rounded first.

    Returns
    -------
    Callable
        ``fn`` itself on the CPU and ``meta``, elsewhere the rule's bits (see
        the module's docstring).
    """

    def computed(x: Any, y: Any) -> Any:
        if not off_cpu(x, y):
            return fn(x, y)
        scalar_first = not isinstance(x, Tensor)
        tensor, other = (y, x) if scalar_first else (x, y)
        if isinstance(other, Tensor):  # a lower 0-d operand, read at float32 precision by the CPU
            if opmath and other.ndim == 0 and other.dtype != dtype and not scalar_first:
                return fn(x.float(), y.to(torch.float32)).to(dtype)
            return fn(x, y)
        if other.__class__ not in (int, float) or op == "multiply":  # CUDA's mul reads it as the rules do
            return fn(x, y)
        if op in _SUMS:
            value = _rounded(other, dtype) if dtype in _REDUCED else other
            return fn(value, y) if scalar_first else fn(x, value)
        if opmath and not scalar_first:
            return fn(x.float(), numerics.scalar_tensor(other, torch.float32, x.device)).to(dtype)
        operand = numerics.scalar_tensor(_rounded(other, dtype), dtype, tensor.device)  # no CPU scalar
        return fn(operand, y) if scalar_first else fn(x, operand)

    return computed
