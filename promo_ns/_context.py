"""The active scope: a context variable holding the policy override and the tracer, if any.

It is thread- and task-local.  ``None`` (no ``policy`` or ``trace`` block) is
what the op path tests for: every op outside such blocks pays nothing else.

A block around ``yield`` in a generator sets the scope of whoever runs the
generator: the caller is under the block's policy between ``next()`` calls, as
with any context manager around ``yield``.  When the block ends, in whatever
thread or context the generator is finished, its scope is closed: a context
that still holds it (the caller's, if the generator was finished elsewhere)
sees the scope that was in force around the block instead, so no policy stays
in force after its block, and leaving a block never raises.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from contextvars import ContextVar, Token
from typing import TYPE_CHECKING

from promo_ns.policies import Policy, get_policy

if TYPE_CHECKING:
    from promo_ns._trace import Trace

__all__ = ["BLOCK_HOOKS", "Scope", "active", "current", "policy", "trace", "tracer"]


class Scope:
    """What the innermost ``policy``/``trace`` blocks set: an override policy, a tracer.

    ``outer`` is the scope around the block; a closed scope (its block has
    ended) stands for its nearest open ``outer``.
    """

    __slots__ = ("closed", "outer", "policy", "tracer")

    def __init__(self, policy: Policy | None, tracer: Trace | None, outer: Scope | None) -> None:
        self.policy = policy
        self.tracer = tracer
        self.outer = outer
        self.closed = False


_SCOPE: ContextVar[Scope | None] = ContextVar("promo_ns_scope", default=None)
#: Context managers each ``policy`` block runs inside, made from its policy: a library that caches
#: traced code keys its cache on the policy this way (JAX's adapter adds one for ``jax.jit``).
BLOCK_HOOKS: list[Callable[[Policy], AbstractContextManager[object]]] = []


def current() -> Scope | None:
    """The innermost open scope, or None outside every block."""
    scope = _SCOPE.get()
    while scope is not None and scope.closed:
        scope = scope.outer
    return scope


def _leave(token: Token[Scope | None], scope: Scope) -> None:
    """End ``scope``'s block: restore the previous scope where this context still holds ``scope``."""
    scope.closed = True
    if _SCOPE.get() is not scope:
        return  # finished in another context: the one holding it now skips it, as it is closed
    try:
        _SCOPE.reset(token)
    except ValueError:  # the token belongs to the context the block began in
        _SCOPE.set(current())


@contextmanager
def policy(name: str | Policy) -> Iterator[Policy]:
    """Use ``name``'s policy for every promo_ns namespace inside the ``with`` block.

    Blocks nest; the previous policy is restored on exit, also on exceptions.
    The override is local to the current thread and asyncio task.

    Parameters
    ----------
    name
        A registered policy name or a :class:`Policy`.

    Yields
    ------
    Policy
        The policy in force inside the block.
    """
    chosen = get_policy(name)
    outer = current()
    scope = Scope(chosen, outer.tracer if outer else None, outer)
    token = _SCOPE.set(scope)
    try:
        with ExitStack() as hooks:
            for hook in BLOCK_HOOKS:
                hooks.enter_context(hook(chosen))
            yield chosen
    finally:
        _leave(token, scope)


@contextmanager
def trace() -> Iterator[Trace]:
    """Record every implicit cast promo_ns makes inside the ``with`` block.

    The block is local to the current thread and asyncio task; threads that
    run in a copy of its context (``contextvars.copy_context().run``) record
    into the same trace, and none of their records is lost.  Under
    ``jax.jit`` a cast is recorded once per tracing (each compilation), not
    once per call of the compiled function.

    Yields
    ------
    Trace
        The records: op, operand dtypes and roles, result dtype, bytes
        converted, and whether the result is wider than every input;
        ``t.summary()`` groups them.  Nested blocks record into the innermost.
    """
    from promo_ns._trace import Trace

    tracer = Trace()
    outer = current()
    scope = Scope(outer.policy if outer else None, tracer, outer)
    token = _SCOPE.set(scope)
    try:
        yield tracer
    finally:
        _leave(token, scope)


def active(default: Policy) -> Policy:
    """The policy in force: the innermost ``promo_ns.policy(...)`` block's, else ``default``."""
    scope = _SCOPE.get()
    if scope is not None and scope.closed:
        scope = current()
    return (scope.policy if scope else None) or default


def tracer() -> Trace | None:
    """The tracer of the innermost ``trace`` block, if any."""
    scope = current()
    return scope.tracer if scope else None
