"""Caches that live as long as their policy: compiled tables and plans die with throw-away policies."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable
from typing import Concatenate, ParamSpec, TypeVar
from weakref import WeakKeyDictionary

from promo_ns.policies import Policy

__all__ = ["per_policy"]

P = ParamSpec("P")
R = TypeVar("R")


def per_policy(fn: Callable[Concatenate[Policy, P], R]) -> Callable[Concatenate[Policy, P], R]:
    """Cache ``fn(policy, *args)`` per policy, held weakly: a policy nobody holds frees its entries.

    A cached value must not refer to its policy: the cache holds values
    strongly, so such a value would keep its policy alive for good.
    Policies are immutable, so an entry never goes stale.
    """
    caches: WeakKeyDictionary[Policy, dict[tuple[Hashable, ...], R]] = WeakKeyDictionary()
    lock = threading.Lock()

    @functools.wraps(fn)
    def cached(policy: Policy, /, *args: P.args, **kwargs: P.kwargs) -> R:
        memo = caches.get(policy)
        if memo is None:
            with lock:
                memo = caches.setdefault(policy, {})
        try:
            return memo[args]
        except KeyError:
            value = memo[args] = fn(policy, *args, **kwargs)
            return value

    return cached
