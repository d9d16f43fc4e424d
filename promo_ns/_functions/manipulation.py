"""Manipulation functions: ``concat`` and ``stack`` promote their arrays under the policy."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from promo_ns._convert import array_of, wrap, wrap_result
from promo_ns._functions._common import OWN_AXIS_CHECK, SIGNATURES, checked_axis, sequence_of
from promo_ns._operands import Space
from promo_ns._plan import kernel, promoted
from promo_ns._plan_functions import planned_join

__all__ = ["DELEGATED", "FUNCTIONS"]

DELEGATED = (
    "broadcast_to",
    "expand_dims",
    "flip",
    "moveaxis",
    "permute_dims",
    "repeat",
    "reshape",
    "roll",
    "squeeze",
    "tile",
    "unstack",
    "matrix_transpose",
)


def _joining(name: str) -> Callable[..., Any]:
    def join(ns: Space, arrays: Sequence[Any], /, *, axis: int | None = 0) -> Any:
        if axis is not None and axis.__class__ is not int:
            axis = checked_axis(name, axis)
        if not isinstance(arrays, (list, tuple)):
            raise TypeError(
                f"{name}() takes a tuple or list of arrays, not {type(arrays).__name__}: "
                f"xp.{name}([x1, x2, ...])"
            )
        if not arrays:
            raise ValueError(f"{name}() needs at least one array: xp.{name}([x1, x2, ...])")
        dtype, natives = promoted(ns, name, list(arrays))
        out = kernel(ns, name, getattr(ns._backend.compat, name), natives, axis=axis)
        return wrap_result(ns, name, out, dtype)

    join.__name__ = join.__qualname__ = name
    join.__doc__ = f"``{name}`` of the Array API standard; the arrays are promoted under the active policy."
    return planned_join(name, join)


def broadcast_arrays(ns: Space, *arrays: Any) -> tuple[Any, ...] | list[Any]:
    """``broadcast_arrays`` of the Array API standard: a tuple of arrays (a list in 2024.12)."""
    out = ns._backend.compat.broadcast_arrays(*(array_of(ns, x, "broadcast_arrays") for x in arrays))
    return sequence_of(ns, [wrap(x, ns) for x in out])


def broadcast_shapes(ns: Space, *shapes: tuple[int | None, ...]) -> tuple[int | None, ...]:
    """The shape ``shapes`` broadcast to (2025.12), alike on every backend.

    A dimension of unknown size (``None``) stays unknown unless another shape
    gives that dimension a size other than 1, the only size it can then have.

    Raises
    ------
    TypeError
        A shape is not a tuple of ints (or ``None``).
    ValueError
        The shapes do not broadcast together (torch itself raises RuntimeError).
    """
    for shape in shapes:
        if not isinstance(shape, tuple) or not all(
            size is None or (isinstance(size, int) and not isinstance(size, bool)) for size in shape
        ):
            raise TypeError(
                f"broadcast_shapes() takes shapes, tuples of ints (or None for an unknown size), "
                f"not {type(shape).__name__} {shape!r}; e.g. xp.broadcast_shapes((2, 1), (3,))"
            )
    ndim = max((len(shape) for shape in shapes), default=0)
    out: list[int | None] = []
    for axis in range(-ndim, 0):
        sizes = {shape[axis] for shape in shapes if len(shape) >= -axis}
        known = sizes - {1, None}
        if len(known) > 1 or any(size < 0 for size in known if size is not None):
            raise ValueError(f"shapes {', '.join(map(str, shapes))} do not broadcast together")
        out.append(known.pop() if known else None if None in sizes else 1)
    return tuple(out)


_SIGNATURES: dict[str, Callable[..., None]] = {"broadcast_arrays": lambda *arrays: None}
SIGNATURES.update(_SIGNATURES)
OWN_AXIS_CHECK.update(("concat", "stack"))  # join() checks its axis first: no wrapper on the hot path

FUNCTIONS: dict[str, Callable[..., Any]] = {
    "concat": _joining("concat"),
    "stack": _joining("stack"),
    "broadcast_arrays": broadcast_arrays,
    "broadcast_shapes": broadcast_shapes,
}
