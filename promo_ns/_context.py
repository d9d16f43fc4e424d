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

from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from contextvars import ContextVar, Token
from typing import TYPE_CHECKING, Any

from promo_ns.policies import Policy, get_policy

if TYPE_CHECKING:
    from promo_ns._trace import Trace

__all__ = [
    "BLOCK_HOOKS",
    "Scope",
    "active",
    "current",
    "held_trace",
    "innermost",
    "policy",
    "trace",
    "tracer",
]


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
#: The innermost scope as set, closed or not; None outside blocks (the hot paths' one test, a C call).
innermost = _SCOPE.get
#: Context managers each ``policy`` block runs inside, made from its policy: a library that caches
#: traced code keys its cache on the policy this way (JAX's adapter adds one for ``jax.jit``).
BLOCK_HOOKS: list[Callable[[Policy], AbstractContextManager[object]]] = []


def current() -> Scope | None:
    """The innermost open scope, or None outside every block.

    A scope closed in another context (a block a generator or task ended
    elsewhere) is dropped from this one, so its ops take the paths of code
    outside that block again.
    """
    held = scope = _SCOPE.get()
    while scope is not None and scope.closed:
        scope = scope.outer
    if scope is not held:
        _SCOPE.set(scope)
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


class _Block:
    """A ``with`` block that opens a :class:`Scope`: reusable, and re-entrant in any thread or task.

    Each ``with`` opens a scope of its own; its exit closes the scope this
    context entered last through this object, so one object serves any number
    of blocks, one after another or nested, in any thread.
    """

    __slots__ = ("_open",)

    def __init__(self) -> None:
        self._open: list[tuple[Scope, Token[Scope | None], ExitStack]] = []

    def _scope(self, outer: Scope | None) -> tuple[Scope, Any]:
        """The scope a block opens inside ``outer``, and what ``with ... as`` gets."""
        raise NotImplementedError

    def _hooks(self, scope: Scope, hooks: ExitStack) -> None:
        """Enter what the block runs inside (the policy's :data:`BLOCK_HOOKS`)."""

    def __enter__(self) -> Any:
        scope, given = self._scope(current())
        token = _SCOPE.set(scope)
        hooks = ExitStack()
        try:
            self._hooks(scope, hooks)
        except BaseException:
            hooks.close()
            _leave(token, scope)
            raise
        self._open.append((scope, token, hooks))
        return given

    def __exit__(self, *exc: object) -> None:
        now = _SCOPE.get()
        at = next((i for i in range(len(self._open) - 1, -1, -1) if self._open[i][0] is now), -1)
        scope, token, hooks = self._open.pop(at)
        try:
            hooks.__exit__(*exc)  # type: ignore[arg-type]
        finally:
            _leave(token, scope)


class _PolicyBlock(_Block):
    """What :func:`policy` returns: a block using one policy, looked up as each block begins."""

    __slots__ = ("name",)

    def __init__(self, name: str | Policy) -> None:
        super().__init__()
        self.name = name

    def __repr__(self) -> str:
        name = self.name if isinstance(self.name, str) else self.name.name
        return f"promo_ns.policy({name!r})"

    def _scope(self, outer: Scope | None) -> tuple[Scope, Policy]:
        chosen = get_policy(self.name)
        return Scope(chosen, outer.tracer if outer else None, outer), chosen

    def _hooks(self, scope: Scope, hooks: ExitStack) -> None:
        assert scope.policy is not None  # a policy block's scope has its policy
        for hook in BLOCK_HOOKS:
            hooks.enter_context(hook(scope.policy))


class _TraceBlock(_Block):
    """What :func:`trace` returns: a block recording into a new :class:`~promo_ns._trace.Trace` each time.

    A ``detached`` block keeps its records from the enclosing trace, for
    whoever hands them on once the op they belong to has run.
    """

    __slots__ = ("detached",)

    def __init__(self, *, detached: bool = False) -> None:
        super().__init__()
        self.detached = detached

    def __repr__(self) -> str:
        return "promo_ns.trace()"

    def _scope(self, outer: Scope | None) -> tuple[Scope, Trace]:
        from promo_ns._trace import Trace

        tracer = Trace(enclosing=outer.tracer if outer and not self.detached else None)
        return Scope(outer.policy if outer else None, tracer, outer), tracer


def policy(name: str | Policy) -> AbstractContextManager[Policy]:
    """Use ``name``'s policy for every promo_ns namespace inside the ``with`` block.

    Blocks nest; the previous policy is restored on exit, also on exceptions.
    The override is local to the current thread and asyncio task.  The
    object returned may be used in any number of ``with`` blocks; ``name``
    is looked up as each begins (an unknown one raises there).

    Parameters
    ----------
    name
        A registered policy name or a :class:`Policy`.

    Returns
    -------
    AbstractContextManager[Policy]
        The block; ``with promo_ns.policy(name) as p`` gives the policy in force inside it.
    """
    return _PolicyBlock(name)


def trace() -> AbstractContextManager[Trace]:
    """Record every implicit cast promo_ns makes inside the ``with`` block.

    Operators and functions of several operands record the operands they
    convert; one-array functions (``log``, ``mean``) record an input they
    convert to the dtype they compute in, and reductions (``sum``, ``prod``,
    ``cumulative_sum``) one they accumulate in a wider dtype than its own,
    unless ``dtype=`` asked for it.  The block is local to the current thread
    and asyncio task; threads that run in a copy of its context
    (``contextvars.copy_context().run``) record into the same trace, and none
    of their records is lost.  Under ``jax.jit`` a cast is recorded once per
    tracing (each compilation), not once per call of the compiled function.

    Returns
    -------
    AbstractContextManager[Trace]
        The block; ``with promo_ns.trace() as t`` gives the records: op,
        operand dtypes and roles, result dtype, bytes converted, and whether
        the result is wider than every input; ``t.summary()`` groups them.
        A block inside another records into both: the outer trace keeps
        every record of the inner one.  The object may be used in any number
        of ``with`` blocks, each giving a new trace.
    """
    return _TraceBlock()


def held_trace() -> AbstractContextManager[Trace]:
    """A trace block whose records stay out of the enclosing trace until handed on (:meth:`Trace.add`)."""
    return _TraceBlock(detached=True)


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
