"""Operands as the plan layer packs them: one int, the *operand code*, per (dtype, role).

An array's code is ``2 * dtype index + zero_d``; a Python scalar's follows
the arrays' (:data:`_SCALAR_CODE`), so a binary plan is one list index
``code1 * _NK + code2``.  This module is the one owner of that packing:
:func:`code_of` packs, :func:`key` and :func:`dtype_of_code` read, and
:func:`_engine_operand` turns an array or Python scalar into the engine's
:class:`~promo_ns._engine.operands.Operand`.  :class:`Space` is what the plan layer
reads of a namespace.
"""

from __future__ import annotations

from typing import Any, Protocol

from promo_ns._dtypes import DTYPES, DType
from promo_ns._engine.operands import Operand
from promo_ns.backends import Backend
from promo_ns.policies import Policy, Role

__all__ = ["NO_ARRAY", "Space", "code_of", "dtype_of_code", "key"]


class Space(Protocol):
    """What the plan layer reads of a namespace."""

    Array: Any  #: the array wrapper class, whose instances have ``_x``, ``_ns`` and ``_k``
    policy: Policy
    _backend: Backend
    #: The plan layer's caches: op -> the binary plans; function (astype: the target dtype) -> operand
    #: code -> a one-array repeat; (op, operand codes ...) -> a plan of several operands.
    _plans: dict[Any, Any]

    def policy_now(self) -> Policy:
        """The policy in force."""
        ...

    def __getattr__(self, name: str) -> Any:
        """The namespace's functions (``asarray``, ``matmul``, ...)."""
        ...


# --- operand codes: an int per (dtype, role), so a plan lookup is one list index ----------

_N = len(DTYPES)
_INDEX = {d: i for i, d in enumerate(DTYPES)}
_NA = 2 * _N  #: array codes are below this, Python scalar codes from it
_SCALAR_CODE: dict[type, int] = {bool: 2 * _N, int: 2 * _N + 1, float: 2 * _N + 2, complex: 2 * _N + 3}
_SCALAR_TYPES = tuple(_SCALAR_CODE)
_NK = 2 * _N + 4
#: The code of a pytree node holding a leaf that is no array: no dtype (:func:`dtype_of_code` raises).
NO_ARRAY = _NA
#: code -> the engine's (dtype, role) key.
_KEYS: tuple[tuple[DType | None, Role], ...] = tuple(
    (d, role) for d in DTYPES for role in (Role.ND, Role.ZERO_D)
) + tuple((None, r) for r in (Role.BOOL, Role.INT, Role.FLOAT, Role.COMPLEX))


def key(c: int) -> tuple[DType | None, Role]:
    """The engine's ``(dtype, role)`` key of operand code ``c``."""
    return _KEYS[c]


def dtype_of_code(c: int) -> DType:
    """The dtype of array operand code ``c``; a TypeError for :data:`NO_ARRAY`'s."""
    try:
        return DTYPES[c >> 1]
    except IndexError:
        raise TypeError(
            "this promo_ns Array is a pytree node holding a leaf that is no array (a tree function such "
            "as jax.tree.map put it there): it has no dtype; read the leaves with jax.tree.leaves(tree)"
        ) from None


def code_of(dtype: DType, zero_d: bool) -> int:
    """The operand code of an array of ``dtype``, 0-d or not."""
    return 2 * _INDEX[dtype] + zero_d


def _engine_operand(x: Any) -> Operand:
    code = _SCALAR_CODE.get(x.__class__)
    if code is None:  # an array
        return Operand(*_KEYS[x._k])
    return Operand(None, _KEYS[code][1], x)
