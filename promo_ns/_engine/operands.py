"""The engine's vocabulary: the operands it decides over and what it answers.

An :class:`Operand` is a dtype (``None`` for a Python scalar), a role and,
for a Python scalar, its value; a decision is a :class:`~promo_ns._dtypes.DType`
or a :class:`Refusal`, which reaches the user as a :class:`PromotionError`.
:func:`_kinds` names dtype kinds in words for the messages.
"""

from __future__ import annotations

from typing import NamedTuple

from promo_ns._dtypes import DType
from promo_ns.policies._model import Policy, Role

__all__ = ["Key", "Operand", "PromotionError", "Refusal", "as_taken", "operand"]

Key = tuple[DType | None, Role]

_KIND_ORDER = "buifc"
_KIND_WORDS = {
    "b": "bool",
    "i": "signed integer",
    "u": "unsigned integer",
    "f": "floating-point",
    "c": "complex",
}


def _kinds(kinds: str) -> str:
    """``"fc"`` -> ``"floating-point or complex"``; ``"biu"`` -> ``"bool or integer"``."""
    words = [_KIND_WORDS[k] for k in _KIND_ORDER if k in kinds]
    if "i" in kinds and "u" in kinds:
        words = [w for w in words if not w.endswith("integer")]
        words.insert(1 if "b" in kinds else 0, "integer")
    if not words:
        return "no"
    return " or ".join(filter(None, (", ".join(words[:-1]), words[-1])))


class PromotionError(TypeError):
    """An op whose operand dtypes the active policy does not combine.

    The message names the policy, the op, each operand's dtype and role, and
    an explicit cast that makes the op valid.
    """


class Operand(NamedTuple):
    """One operand as the engine sees it: dtype (``None`` for a Python scalar), role, value."""

    dtype: DType | None
    role: Role
    value: object = None

    def describe(self) -> str:
        """``"int8 (n-d array)"`` or ``"1.5 (Python float)"``."""
        role = self.role.value  # its words, without Enum's format() in Python
        return f"{self.value!r} ({role})" if self.dtype is None else f"{self.dtype.name} ({role})"


#: A Python scalar's kind letter -> its key in :attr:`Policy.defaults`.
_DEFAULT_OF = {"b": "bool", "i": "int", "f": "float", "c": "complex"}
_SCALAR_ROLE = {bool: Role.BOOL, int: Role.INT, float: Role.FLOAT, complex: Role.COMPLEX}


def operand(x: object) -> Operand:
    """The :class:`Operand` of a Python scalar (``bool``/``int``/``float``/``complex``)."""
    role = _SCALAR_ROLE.get(type(x))
    if role is None:
        for base, r in _SCALAR_ROLE.items():
            if isinstance(x, base):
                role = r
                break
        else:
            raise TypeError(f"expected an array or a Python scalar, got {type(x).__name__}")
    return Operand(None, role, x)


_PYTHON_ROLE = {"b": Role.BOOL, "i": Role.INT, "u": Role.INT, "f": Role.FLOAT, "c": Role.COMPLEX}


def as_taken(policy: Policy, o: Operand) -> Operand:
    """Operand ``o`` as ``policy`` takes it: a NumPy scalar as a 0-d array or as the Python scalar it holds.

    A NumPy scalar's operand carries its dtype and, as its value, the Python
    scalar it holds (``np.float64(1.5).item()``); other operands are returned as they are.
    """
    if o.role is not Role.NP_SCALAR:
        return o
    dtype, role = taken_role(policy, o.dtype, o.role)
    return Operand(dtype, role, o.value if dtype is None else None)


def taken_role(policy: Policy, dtype: DType | None, role: Role) -> Key:
    """The table key ``(dtype, role)`` as ``policy`` takes it (:func:`as_taken` without a value)."""
    if role is not Role.NP_SCALAR or dtype is None:
        return (dtype, role)
    if policy.numpy_scalars == "python":
        return (None, _PYTHON_ROLE[dtype.kind])
    return (dtype, Role.ZERO_D)


class Refusal(NamedTuple):
    """Why a cell has no dtype: ``"kind"``, ``"same_dtype"``, ``"promotion"`` or ``"scalars"``."""

    why: str
