"""Exact integer products on torch devices that have no integer ``matmul`` kernel (CUDA).

torch's CPU multiplies integer matrices; CUDA has no integer ``addmm``/``dot``
(``"addmm_cuda" not implemented for 'Char'``), so ``matmul``, ``tensordot``,
``vecdot`` and ``matrix_power`` of integer tensors raise there, where NumPy
computes them (wrapping around in the operands' dtype).  Here they compute
exactly from float64 products, on the operands' device:

- each operand's low ``bits`` bits (two's complement, read as int64) are cut
  into limbs of ``w`` bits, small enough that every float64 product of two
  limbs sums exactly (``k * (2**w - 1)**2 < 2**53`` for ``k`` terms);
- the product is the sum of the limb products ``a_i * b_j`` shifted by
  ``w * (i + j)`` bits, in int64 (which wraps modulo ``2**64``), and a cast
  to the operands' dtype keeps its low ``bits`` bits: NumPy's wrapped result.

The integer kernel runs first; only where it raises is the product built so.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import torch

__all__ = ["exact_integer_product", "integer_matrix_power", "integer_product"]

Tensor = torch.Tensor
_EXACT = 53  # bits of a float64 significand


def _is_integer(x: Any) -> bool:
    """Whether ``x`` is a tensor of a (signed or unsigned) integer dtype."""
    return isinstance(x, Tensor) and not (
        x.dtype.is_floating_point or x.dtype.is_complex or x.dtype == torch.bool
    )


def exact_integer_product(fn: Callable[..., Any], x1: Tensor, x2: Tensor, /, **kw: Any) -> Tensor:
    """``fn(x1, x2, **kw)`` (a bilinear product: ``matmul``, ``tensordot``, ``vecdot``) of integer tensors.

    Computed from float64 products of limbs of the operands' bits, then cast to
    their dtype (see the module's docstring): bit for bit the product with
    wrap-around that NumPy gives.

    Parameters
    ----------
    fn
        The product, called on float64 tensors of ``x1``'s and ``x2``'s shapes.
    x1, x2
        Integer tensors of one dtype, on one device.
    **kw
        ``fn``'s keyword arguments (``axes``, ``axis``).

    Returns
    -------
    Tensor
        The product, of ``x1``'s dtype.
    """
    dtype = x1.dtype
    bits = torch.iinfo(dtype).bits
    terms = max(1, min(x1.numel(), x2.numel()))  # bounds the length of every sum
    width = max(1, min(bits, (_EXACT - math.ceil(math.log2(terms + 1))) // 2))
    count = -(-bits // width)
    mask = (1 << width) - 1
    a, b = x1.to(torch.int64), x2.to(torch.int64)
    limbs1 = [((a >> (width * i)) & mask).to(torch.float64) for i in range(count)]
    limbs2 = [((b >> (width * j)) & mask).to(torch.float64) for j in range(count)]
    total: Tensor | None = None
    for i in range(count):
        for j in range(count - i):
            part = fn(limbs1[i], limbs2[j], **kw).to(torch.int64)
            if i + j:
                part = torch.bitwise_left_shift(part, width * (i + j))
            total = part if total is None else total + part
    assert total is not None
    return total.to(dtype)


def integer_product(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``matmul``/``tensordot``/``vecdot``, exact for integer tensors where the device has no kernel.

    The kernel runs first; where it raises (NotImplementedError, or promo_ns's
    TypeError for uint16/32/64 that found no signed kernel either) on two
    integer tensors of one dtype off ``meta``, :func:`exact_integer_product`
    computes the product.
    """

    @functools.wraps(fn)
    def product(x1: Any, x2: Any, /, **kw: Any) -> Any:
        try:
            return fn(x1, x2, **kw)
        except (NotImplementedError, TypeError):
            if not (
                _is_integer(x1) and _is_integer(x2) and x1.dtype == x2.dtype and x1.device.type != "meta"
            ):
                raise
        return exact_integer_product(fn, x1, x2, **kw)

    return product


def integer_matrix_power(fn: Callable[..., Any], matmul: Callable[..., Any]) -> Callable[..., Any]:
    """``linalg.matrix_power``, by repeated squaring with ``matmul`` where the device has no integer kernel.

    ``matmul``: the exact integer product (see :func:`integer_product`).  A
    negative power of an integer matrix raises torch's own error first.
    """

    @functools.wraps(fn)
    def matrix_power(x: Any, /, *args: Any, **kw: Any) -> Any:
        try:
            return fn(x, *args, **kw)
        except (NotImplementedError, TypeError):
            n = args[0] if args else kw.get("n")
            if not (_is_integer(x) and isinstance(n, int) and n >= 0 and x.device.type != "meta"):
                raise
        eye = torch.eye(x.shape[-1], dtype=torch.int64, device=x.device).to(x.dtype)
        out = eye.expand(x.shape).clone()
        square = x
        while n:
            if n & 1:
                out = matmul(out, square)
            n >>= 1
            if n:
                square = matmul(square, square)
        return out

    return matrix_power
