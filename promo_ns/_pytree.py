"""promo_ns arrays as nodes of a tree library (JAX's pytrees): flatten, unflatten, and their keys.

A promo_ns array is a node with one child, its native array; its aux data
names its namespace and the policy in force, so that a function traced under
one policy (``jax.jit``) is traced again under another.  The aux data hold
both weakly: a tree library's caches (``jax.jit``'s) keep aux data as long as
the function lives, and a throw-away policy must be freed with its arrays.

Unflattening takes any leaf, as JAX requires of a node type (``jax.tree.map``
with a function that returns no array, ``jax.custom_vjp``'s ``object()``
sentinels): a leaf that is no array of a canonical dtype makes a node that
holds it and says so, and has no dtype, where before it claimed bool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from promo_ns._memo import IdentityKey
from promo_ns._operands import NO_ARRAY, Space, code_of

__all__ = ["Leaf", "tree_flatten", "tree_unflatten"]

_new = object.__new__


class Leaf:
    """A promo_ns array node's native array and namespace where a tree library put a leaf that is no array.

    ``jax.tree.map(lambda l: l.shape, x)`` gives a node holding ``x.shape``:
    the node has no dtype, shape, values or namespace, and every use of it as
    an array raises a TypeError saying so.  ``jax.tree.leaves(tree)`` gives
    the leaf itself, and so does :attr:`value`.
    """

    __slots__ = ("aux", "value")

    def __init__(self, value: Any, aux: IdentityKey) -> None:
        self.value = value
        self.aux = aux

    def __getattr__(self, name: str) -> Any:
        if name in Leaf.__slots__:  # not set yet (a copy being made)
            raise AttributeError(name)
        raise no_array(self.value)

    def __getitem__(self, key: Any) -> Any:  # read as a namespace's plans by the operators' fast path
        raise no_array(self.value)

    def __reduce__(self) -> Any:
        raise no_array(self.value)

    def __repr__(self) -> str:
        return f"pytree leaf {self.value!r}, no array"


def no_array(value: Any) -> TypeError:
    """The error for using a node that holds ``value``, no array, as an array."""
    return TypeError(
        f"this promo_ns Array is a pytree node holding {type(value).__name__} {value!r}, not an array of "
        "a dtype promo_ns knows (a tree function such as jax.tree.map put it there): it has no dtype, "
        "shape or values. Read the leaves with jax.tree.leaves(tree)."
    )


def tree_flatten(a: Any) -> tuple[tuple[Any], IdentityKey]:
    """Array ``a`` as a node of a tree library: one child, its native array (or the leaf it holds).

    The aux data stand for its namespace and the policy in force, weakly.
    """
    ns = a._ns
    if ns.__class__ is Leaf:
        return (ns.value,), ns.aux
    policy = ns.policy_now()
    if policy is not ns.policy:  # inside a policy block
        return (a._x,), IdentityKey(ns, policy)
    aux = ns._plans.get(IdentityKey)  # the namespace's own key, made once
    if aux is None:
        aux = ns._plans[IdentityKey] = IdentityKey(ns, policy)
    return (a._x,), aux


def tree_unflatten(aux: IdentityKey, children: Sequence[Any]) -> Any:
    """The array of namespace ``aux``'s around ``children[0]``, zero-copy (see :func:`tree_flatten`).

    The operand code is read from the child's dtype and shape (``jax.vmap``
    makes 0-d arrays of 1-d ones).  A child that is no array of a canonical
    dtype (a shape, None, a sentinel, a float0 tangent) makes a node that holds
    it in a :class:`Leaf`, which stands for its array and its namespace.

    Raises
    ------
    TypeError
        The namespace was freed: a program a tree library cached returned an
        array of a namespace nothing else holds any more (of a policy made
        inside the traced function and not registered).
    """
    ns: Space | None = aux.get(0)
    if ns is None:
        raise TypeError(
            "a cached JAX program returned a promo_ns array of a namespace that was freed (its policy "
            "was made inside the traced function and nothing holds it any more); make the policy "
            "outside the function, or register it with promo_ns.register"
        )
    (x,) = children
    a = _new(ns.Array)
    try:
        a._k = code_of(ns._backend.dtype(x), len(x.shape) == 0)
    except (AttributeError, TypeError):
        a._k = NO_ARRAY
        a._x = a._ns = a._p = Leaf(x, aux)  # array and namespace alike: any use raises
    else:
        a._x = x
        a._ns = ns
        a._p = ns._plans
    return a
