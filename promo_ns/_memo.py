"""Caches that live as long as their policy: compiled tables and plans die with throw-away policies.

:class:`IdentityKey` keys a cache by objects' identity without keeping them alive.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Callable, Hashable
from typing import Any, Concatenate, ParamSpec, TypeVar

from promo_ns.policies import Policy

__all__ = ["IdentityKey", "per_policy"]

P = ParamSpec("P")
R = TypeVar("R")
#: What a cache holds for a key it has no value for.
_MISSING: Any = object()


def per_policy(fn: Callable[Concatenate[Policy, P], R]) -> Callable[Concatenate[Policy, P], R]:
    """Cache ``fn(policy, *args, **kwargs)`` per policy, held weakly: a policy nobody holds frees its entries.

    A cached value must not refer to its policy: the cache holds values
    strongly, so such a value would keep its policy alive for good.
    Policies are immutable, so an entry never goes stale.
    """
    caches: dict[int, dict[tuple[Hashable, ...], R]] = {}  # by id(policy): a plain dict lookup in C
    lock = threading.Lock()

    @functools.wraps(fn)
    def cached(policy: Policy, /, *args: P.args, **kwargs: P.kwargs) -> R:
        memo = caches.get(id(policy))
        if memo is None:
            with lock:
                memo = caches.get(id(policy))
                if memo is None:
                    # dropped as the policy is freed, before its id can be another object's
                    weakref.finalize(policy, caches.pop, id(policy), None)
                    memo = caches[id(policy)] = {}
        key = (*args, *sorted(kwargs.items())) if kwargs else args
        value: R = memo.get(key, _MISSING)
        if value is _MISSING:  # computed outside any except block: its errors carry no KeyError context
            value = memo[key] = fn(policy, *args, **kwargs)
        return value

    return cached


class IdentityKey:
    """A hashable key standing for some objects by identity, without keeping them alive.

    Two keys are equal when they stand for the very same objects and those
    are alive; a key whose objects were freed equals no other key, so a cache
    entry under it is never found again (even where a new object reuses an id).
    """

    __slots__ = ("__weakref__", "_hash", "_refs")

    def __init__(self, *objects: Any) -> None:
        self._refs = tuple(map(weakref.ref, objects))
        self._hash = hash(tuple(map(id, objects)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not IdentityKey:
            return NotImplemented
        if other is self:
            return True
        mine, theirs = self._refs, other._refs
        if len(mine) != len(theirs):
            return False
        for a, b in zip(mine, theirs, strict=True):
            o = a()
            if o is None or o is not b():
                return False
        return True

    def get(self, i: int) -> Any:
        """The ``i``-th object, or None if it was freed."""
        return self._refs[i]()

    def __repr__(self) -> str:
        return f"IdentityKey({', '.join(repr(r()) for r in self._refs)})"
