"""CuPy's binary ufuncs where they compute otherwise than NumPy's: the numpy-like adapter's fill-ins.

- ``ufunc(x, y, dtype=c)`` runs the first loop whose output is ``c``, whatever its
  inputs (``_Ops._guess_routine_from_dtype`` in CuPy's ``_kernel.pyx``): ``power``'s
  first int8 loop is ``??->b``, which casts both operands to bool, so ``2 **
  int8_array`` was 1 everywhere.  Such a ufunc gets its operands cast to ``c``
  instead (:func:`loop_casts_operands`, :func:`cast_first`).
- Floating ``floor_divide`` is ``floor(x / y)`` (CuPy's ``carray.cuh``): ``1.0 //
  0.1`` is 10.0 and ``inf // 2.0`` inf, where NumPy (and torch, and Python) give
  9.0 and nan.  :func:`floor_divide` computes NumPy's ``npy_floor_divide``.
- Floating ``remainder`` is ``x - floor(x / y) * y``: ``1.0 % 0.1`` is 0.0
  (NumPy: 0.09999999999999995), ``0.0 % -2.0`` is +0.0 (-0.0) and ``1.0 % inf``
  nan (1.0).  :func:`remainder` computes NumPy's ``npy_divmod`` remainder.
- float16 ``nextafter`` of an infinity is nan (NumPy: the largest finite value
  of its sign).  :func:`float16_nextafter` steps the bits as NumPy's
  ``npy_nextafter`` does.

Every function takes the module (``cupy``) and its ``asarray`` (the adapter's,
which keeps a 0-d negative zero) as arguments, so NumPy can stand in for CuPy
in the tests.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy

from promo_ns._dtypes import DType, complex64, complex128
from promo_ns.backends._values import into

__all__ = [
    "FLOAT_DIVISION",
    "NO_KERNEL",
    "cast_first",
    "checking_exponents",
    "dividend_signed",
    "float16_nextafter",
    "floor_divide",
    "loop_casts_operands",
    "no_kernel",
    "remainder",
]


def loop_casts_operands(ufunc: Any, c: Any) -> bool:
    """Whether CuPy's ``ufunc(x, y, dtype=c)`` runs a loop whose inputs are not ``c``.

    CuPy looks among the loops by output (``true_divide``'s float loops) if
    the ufunc has them, else among all its loops, in order.  False where
    ``ufunc`` is not a CuPy ufunc (NumPy's standing in for it).
    """
    ops = getattr(ufunc, "_out_ops", None) or getattr(ufunc, "_ops", None)
    for op in getattr(ops, "ops", ()):
        if all(numpy.dtype(t) == c for t in op.out_types):
            return any(numpy.dtype(t) != c for t in op.in_types)
    return False


Asarray = Callable[..., Any]


def _operand(asarray: Asarray, v: Any, c: Any) -> Any:
    """Operand ``v`` (an array or a Python scalar) as an array of ``c``, without a copy where it is one."""
    return v.astype(c, copy=False) if hasattr(v, "dtype") else asarray(v, dtype=c)


def cast_first(
    asarray: Asarray, ufunc: Any, c: Any, x: Any, y: Any, /, *, dtype: Any = None, **kwargs: Any
) -> Any:
    """``ufunc(x, y, **kwargs)`` computed in ``c`` with ``c``'s own loop: the operands are cast first.

    For a ufunc whose ``dtype=c`` picks another loop (:func:`loop_casts_operands`).
    """
    return ufunc(_operand(asarray, x, c), _operand(asarray, y, c), **kwargs)


def _numpy_division(kernel: Callable[[Any, Any, Any], Any]) -> Callable[..., Any]:
    """NumPy's floating division ``kernel(module, x, y)`` as a CuPy ufunc of ``(module, asarray, c, x, y)``.

    The operands are arrays of the compute dtype ``c`` (float16, float32 or
    float64; ``dtype=`` overrides it), widened to float32 from float16 and the
    result rounded once, as NumPy's float16 loops do; ``out`` takes the result
    where an in-place op gives one.
    """

    @functools.wraps(kernel)
    def division(
        module: Any,
        asarray: Asarray,
        c: Any,
        x: Any,
        y: Any,
        /,
        *,
        out: Any = None,
        dtype: Any = None,
        casting: Any = None,
    ) -> Any:
        c = numpy.dtype(c if dtype is None else dtype)
        wide = numpy.dtype(numpy.float32) if c == numpy.float16 else c
        a, b = (_operand(asarray, v, c).astype(wide, copy=False) for v in (x, y))
        return into(out, kernel(module, a, b).astype(c, copy=False))

    return division


@_numpy_division
def floor_divide(module: Any, a: Any, b: Any) -> Any:
    """NumPy's floating ``floor_divide``, from CuPy's ufuncs (NumPy's ``npy_floor_divide``).

    ``a / b`` for a zero ``b``; else the quotient ``(a - fmod(a, b)) / b``,
    one less where the remainder's sign is not ``b``'s, snapped to the nearest
    integer; a zero quotient takes the sign of ``a / b``.
    """
    mod = module.fmod(a, b)
    div = (a - mod) / b
    div = module.where((mod != 0) & ((b < 0) != (mod < 0)), div - 1, div)
    whole = module.floor(div)
    whole = module.where(div - whole > 0.5, whole + 1, whole)
    quotient = a / b
    whole = module.where(div != 0, whole, module.copysign(module.zeros_like(quotient), quotient))
    return module.where(b == 0, quotient, whole)


@_numpy_division
def remainder(module: Any, a: Any, b: Any) -> Any:
    """NumPy's floating ``remainder``, from CuPy's ufuncs (NumPy's ``npy_divmod``).

    ``fmod(a, b)``, plus ``b`` where its sign is not ``b``'s; a zero
    remainder takes ``b``'s sign (nan for a zero ``b``).
    """
    mod = module.fmod(a, b)
    mod = module.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)
    return module.where(mod == 0, module.copysign(module.zeros_like(mod), b), mod)


#: op -> NumPy's floating kernel of it, computed with CuPy's ufuncs.
FLOAT_DIVISION: dict[str, Callable[..., Any]] = {"floor_divide": floor_divide, "remainder": remainder}


#: Whether the installed NumPy's float16 ``nextafter`` of two equal values gives the second.
_EQUAL_GIVES_Y = not numpy.signbit(numpy.nextafter(numpy.float16(-0.0), numpy.float16(0.0)))


def float16_nextafter(module: Any, asarray: Asarray, x: Any, y: Any, /, *, out: Any = None, **_: Any) -> Any:
    """NumPy's float16 ``nextafter``: the float16 next to ``x`` towards ``y``, stepped on its bits.

    Where the two are equal, ``x`` or ``y`` as the installed NumPy gives (2.4: ``x``, so
    ``nextafter(-0.0, 0.0)`` is -0.0; 2.5: ``y``, as C's); nan where either is; from a zero,
    the smallest subnormal of ``y``'s sign; else the bits, read as int16, one up where the
    step moves away from zero, one down where it moves towards it.
    """
    a, b = module.broadcast_arrays(*(_operand(asarray, v, numpy.float16) for v in (x, y)))
    away = (a < b) == (a > 0)
    stepped = (a.view(numpy.int16) + module.where(away, 1, -1).astype(numpy.int16)).view(numpy.float16)
    tiny = module.copysign(asarray(numpy.float16(2.0**-24)), b)
    result = module.where(a == 0, tiny, stepped)
    result = module.where(a == b, b if _EQUAL_GIVES_Y else a, result)
    return into(out, module.where(module.isnan(a) | module.isnan(b), a + b, result))


def checking_exponents(ufunc: Any, x: Any, y: Any, **kwargs: Any) -> Any:
    """CuPy's signed integer ``ufunc(x, y)`` (``**``), raising NumPy's ValueError for a negative exponent.

    CuPy computes them (1, -1 or 0, as PyTorch's kernel does) where NumPy
    refuses them before computing: the exponents are looked at first.
    """
    if bool((y < 0).any()) if hasattr(y, "dtype") else y < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")
    return ufunc(x, y, **kwargs)


def dividend_signed(module: ModuleType, ufunc: Any, x: Any, y: Any, out: Any = None, **kwargs: Any) -> Any:
    """NumPy adapter's ``_dividend_signed`` on CuPy, which takes no ``where=``."""
    r = ufunc(x, y, **kwargs)
    return into(out, module.where(r == 0, module.copysign(r, x).astype(r.dtype), r))


#: (op, compute dtype) CuPy has no kernel for, nor NumPy: refused up front.  CuPy lists complex
#: loops for atan2, hypot, copysign and nextafter that CUDA cannot compile (a CompileException
#: at the call), and has no complex logaddexp, ``//`` or ``%`` (its bare "Wrong type" TypeError).
NO_KERNEL = frozenset(
    (op, c)
    for op in ("atan2", "hypot", "copysign", "nextafter", "logaddexp", "floor_divide", "remainder")
    for c in (complex64, complex128)
)


def no_kernel(op: str, compute: DType, *args: Any, **kwargs: Any) -> Any:
    """CuPy's ``op`` in ``compute``, which it has no kernel for (see :data:`NO_KERNEL`): a TypeError.

    Raises
    ------
    TypeError
        Always, before anything is computed or written.
    """
    raise TypeError(
        f"cupy has no {op!r} kernel for {compute} (NumPy has none either), the dtype the policy "
        f"computes this {op!r} in; cast the operands to a real floating dtype first."
    )
