"""What the JAX adapter checks before JAX runs: index keys, sizes of new arrays, data for 32-bit dtypes.

JAX checks none of these the way NumPy does: it drops writes out of bounds,
aborts the process on a shape whose size overflows, and rounds data to 32
bits while ``jax_enable_x64`` is off.  Each check looks only at what is known
before JAX runs (Python ints, NumPy data, concrete JAX arrays); a tracer's
values are unknown until the compiled program runs, and JAX's own semantics
apply there.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np

__all__ = ["check_bounds", "jax_key"]


# --- index keys ------------------------------------------------------------------------------


def jax_key(key: Any) -> Any:
    """Index ``key`` as JAX takes it: lists as NumPy index arrays, NumPy bools as Python bools.

    JAX refuses a list of indices (NumPy takes it as an index array) and
    fails on a NumPy bool scalar (NumPy takes it as Python's bool).
    """
    if isinstance(key, tuple):
        return tuple(_jax_part(k) for k in key)
    return _jax_part(key)


def _jax_part(k: Any) -> Any:
    if isinstance(k, list):
        return np.asarray(k) if k else np.asarray(k, dtype=np.intp)
    if isinstance(k, np.bool_):
        return bool(k)
    return k


def _consumed(k: Any) -> int:
    """How many axes of the indexed array key component ``k`` stands for."""
    if k is None or isinstance(k, bool):
        return 0
    dtype = getattr(k, "dtype", None)
    if dtype is not None and dtype.kind == "b":
        return int(k.ndim)
    return 1


def _first_outside(k: Any, n: int) -> int | None:
    """The first integer in index ``k`` outside ``[-n, n)``; None if none is or ``k``'s values are unknown."""
    if isinstance(k, bool | jax.core.Tracer):
        return None
    if isinstance(k, int | np.integer):
        return int(k) if not -n <= k < n else None
    kind = getattr(getattr(k, "dtype", None), "kind", None)
    if kind not in ("i", "u") or k.size == 0:
        return None
    if isinstance(k, jax.Array):
        # Also a concrete array closed over by a jitted function: its bounds are computed eagerly.
        with jax.ensure_compile_time_eval():
            if bool(k.max() < n) and (kind == "u" or bool(k.min() >= -n)):
                return None
        k = np.asarray(k)
    outside = (k >= n) if kind == "u" else (k < -n) | (k >= n)
    return int(k[outside].flat[0]) if outside.any() else None


def check_bounds(x: Any, key: Any) -> None:
    """Raise IndexError for a concrete integer index in ``key`` out of ``x``'s bounds.

    Indices that are tracers are JAX's to handle (``x.at[key].set`` drops the
    writes out of bounds): their values are unknown until the program runs.

    Raises
    ------
    IndexError
        An index is out of bounds: its value, the axis and the axis's size.
    """
    keys = key if isinstance(key, tuple) else (key,)
    axis = 0
    for k in keys:
        if k is Ellipsis:
            axis += x.ndim - sum(_consumed(c) for c in keys if c is not Ellipsis)
            continue
        if axis < x.ndim and (bad := _first_outside(k, int(x.shape[axis]))) is not None:
            raise IndexError(
                f"index {bad} is out of bounds for axis {axis} with size {x.shape[axis]}; nothing was written"
            )
        axis += _consumed(k)
