"""Reading the probe's stored observations: refusals, dtypes and the values of array results.

An observation is ``refused``, ``error: <Class>``, ``unsupported ...``, ``absent``,
``dtype <name>``, ``value <repr>``, or an array result: parts
``"<dtype> <shape> <hex>"`` joined by ``"; "`` (a tuple), the hex being the
little-endian bytes of the values, or ``?`` where none were computed.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

__all__ = ["decode", "dtypes_of", "flushed_only", "is_result", "values_of"]


@functools.lru_cache(maxsize=65536)
def decode(dtype: str, hexbytes: str) -> np.ndarray[Any, Any]:
    """The values of ``hexbytes``, little-endian ``dtype`` (bfloat16 as the float32 of its bits)."""
    raw = bytes.fromhex(hexbytes)
    if dtype == "bfloat16":
        return (np.frombuffer(raw, "<u2").astype(np.uint32) << 16).view(np.float32)
    if dtype == "bool":
        return np.frombuffer(raw, np.uint8).astype(bool)
    return np.frombuffer(raw, np.dtype(dtype).newbyteorder("<"))


def values_of(part: str) -> np.ndarray[Any, Any] | None:
    """The values of one observation part ``"<dtype> <shape> <hex>"``, None where not computed."""
    dtype, _, hexbytes = part.split(" ")
    return None if hexbytes == "?" else decode(dtype, hexbytes)


def is_result(obs: str) -> bool:
    """Whether an observation is an array result (not a refusal, a dtype or a value)."""
    return not obs.startswith(("refused", "error", "unsupported", "absent", "dtype ", "value "))


def dtypes_of(obs: str) -> str:
    """The dtype(s) of an observation (``a,b`` for a tuple), or the observation where it is no result."""
    if not is_result(obs):
        return obs.removeprefix("dtype ")
    return ",".join(p.split(" ")[0] for p in obs.split("; "))


#: The smallest normal number of each floating dtype: below it, a number is subnormal.
_TINY = {"float16": 2.0**-14, "bfloat16": 2.0**-126, "float32": 2.0**-126, "float64": 2.0**-1022}


def flushed_only(seen: str, got: str) -> bool:
    """Whether two results differ only where one is 0 and the other a subnormal (either sign).

    What a kernel that flushes subnormals to zero (TF's and XLA's CPU kernels) gives where
    another computes with them.
    """
    if not (is_result(seen) and is_result(got)):
        return False
    for a, b in zip(seen.split("; "), got.split("; "), strict=False):
        dtype = a.split(" ")[0]
        x, y = values_of(a), values_of(b)
        if x is None or y is None or x.shape != y.shape:
            return False
        if dtype.startswith("complex"):
            x, y = x.view(x.real.dtype), y.view(y.real.dtype)
            dtype = "float32" if dtype == "complex64" else "float64"
        if dtype not in _TINY:
            return False
        x, y = x.astype(np.float64), y.astype(np.float64)
        differ = ~((x == y) & (np.signbit(x) == np.signbit(y))) & ~(np.isnan(x) & np.isnan(y))
        subnormal = (np.abs(y) < _TINY[dtype]) | (np.abs(x) < _TINY[dtype])
        if not bool(np.all(subnormal[differ])):
            return False
    return True
