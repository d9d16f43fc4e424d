"""``promo_ns.compare``: run code under one policy and report the ops other policies decide otherwise.

The block is a ``policy`` block whose scope carries a :class:`Comparison` as
its tracer: every op promo_ns decides and runs reports its operands there (as
it would to a :func:`promo_ns.trace`), and the comparison decides the same op
under the other policies from dtypes, roles and Python-scalar values alone.
Where the outcomes differ it keeps a record with the location in the user's
code.  The decisions are cached per op and operands, so an op that repeats
costs a dict lookup; the location is looked up only for an op whose outcomes
differ.
"""

from __future__ import annotations

import json
import linecache
import os
import runpy
import sys
import threading
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from typing import Any

from promo_ns._context import BLOCK_HOOKS, Scope, _Block, current
from promo_ns._dtypes import DType, canonical
from promo_ns._engine.functions import (
    COMPLEX_LIKE,
    accumulation_dtype,
    check_input_kind,
    complex_like,
    delegated_dtype,
    function_dtype,
)
from promo_ns._engine.operands import Operand, PromotionError, as_taken
from promo_ns._engine.resolution import check_kept, output_dtype, resolve, resolve_many
from promo_ns._ops import DELEGATED_DTYPES
from promo_ns._report import stored_into
from promo_ns._trace import Reported, Trace
from promo_ns.policies import Policy, Role, get_policy

__all__ = ["Comparison", "Difference", "compare", "run_script"]

#: The folder of promo_ns: the first frame outside it is the user's line.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
#: Reductions, which accumulate as the policy says (the others of one array: ``function_dtype``).
_ACCUMULATING = frozenset(("sum", "prod", "cumulative_sum", "cumulative_prod", "trace"))


@dataclass(frozen=True)
class Difference:
    """One op, on one line of the user's code, whose outcome differs between the compared policies."""

    op: str  #: the op (``"add"``, ``"add="`` for ``x += y``, ``"where"``, ``"mean"``, ...)
    operands: tuple[str, ...]  #: each operand: ``"int8 (n-d array)"``, ``"1.5 (Python float)"``
    results: Mapping[str, str]  #: policy name -> the result dtype's name, or ``"refused (PromotionError)"``
    location: str  #: ``path:line`` of the first frame outside promo_ns (relative to the working directory)
    source: str  #: that line of code, stripped
    count: int  #: how many times it ran in the block

    def to_dict(self) -> dict[str, Any]:
        """The record as plain data (for JSON)."""
        return {
            "op": self.op,
            "operands": list(self.operands),
            "results": dict(self.results),
            "location": self.location,
            "source": self.source,
            "count": self.count,
        }


class Comparison(Trace):
    """A ``compare`` block's report: :attr:`differences`, ``str()``, :meth:`to_json`, :meth:`to_markdown`.

    It takes the place of a trace in the block's scope, and hands every
    report on to the trace around the block, if any, so a ``trace`` block
    around a ``compare`` block misses nothing.
    """

    every_op = True

    def __init__(self, policies: Sequence[Policy], enclosing: Trace | None) -> None:
        super().__init__(enclosing=enclosing)
        self.policies = tuple(policies)
        self._decided: dict[tuple[Any, ...], tuple[str, ...] | None] = {}
        self._found: dict[tuple[str, tuple[str, ...], str], Difference] = {}
        self._waiting: dict[int, tuple[str, tuple[Operand, ...], DType]] = {}
        self._lock = threading.Lock()

    # -- what the plan layer reports (the Trace interface) --
    def record(
        self, op: str, operands: Reported, result: DType, compute: DType, *, inplace: bool = False
    ) -> None:
        """Compare ``op`` on ``operands``, which has run with ``result`` under the first policy."""
        if self.enclosing is not None:
            self.enclosing.record(op, operands, result, compute, inplace=inplace)
        taken = _operands(operands)
        if (store := stored_into()) is not None:  # its caller stores the result (torch's out=, x.sqrt_())
            self._compare(op, taken, result, store)
            return
        # in place, the result is stored in the left operand's dtype, whatever it computed in
        self._compare(
            f"{op}=" if inplace else op, taken, taken[0].dtype if inplace and taken[0].dtype else result
        )

    def refused(
        self, op: str, operands: Reported, *, inplace: bool = False, error: str = "PromotionError"
    ) -> None:
        """Compare ``op`` on ``operands``, which the first policy refused with ``error`` (it raises next)."""
        if self.enclosing is not None:
            self.enclosing.refused(op, operands, inplace=inplace, error=error)
        store = None if inplace else stored_into()
        self._compare(f"{op}=" if inplace else op, _operands(operands), f"refused ({error})", store)

    def kept(self, op: str, operands: Reported) -> None:
        """Compare ``op`` on ``operands``, whose results kept each one's dtype under the first policy."""
        taken = _operands(operands)
        self._compare(op, taken, _kept(taken))

    def defaulted(self, op: str, kind: str, result: DType) -> None:
        """Compare creation function ``op``, which took the default ``kind`` dtype of the policy in force."""
        super().defaulted(op, kind, result)
        key = (op, kind)
        outcomes = self._decided.get(key, ())
        if outcomes == ():  # each policy's default (a policy block inside may have run another's)
            first, *others = (str(p.defaults[kind]) for p in self.policies)
            outcomes = None if all(o == first for o in others) else (first, *others)
            self._decided[key] = outcomes
        if outcomes is not None:
            self._keep(op, (f"default {kind} dtype",), outcomes)

    def pending(self, op: str, operands: Reported, result: DType, compute: DType) -> None:
        """Note ``op`` until :meth:`commit` says it has run."""
        if self.enclosing is not None:
            self.enclosing.pending(op, operands, result, compute)
        self._waiting[threading.get_ident()] = (op, _operands(operands), result)

    def commit(self, op: str) -> None:
        """Compare the op this thread noted last, if it is ``op``, which has now run."""
        if self.enclosing is not None:
            self.enclosing.commit(op)
        noted = self._waiting.pop(threading.get_ident(), None)
        if noted is not None and noted[0] == op:
            self._compare(*noted, stored_into())

    # -- deciding --
    def _compare(
        self,
        op: str,
        operands: tuple[Operand, ...],
        result: DType | str,
        store: tuple[DType, bool] | None = None,
    ) -> None:
        """Record ``op`` where another policy decides otherwise than ``result`` (a dtype, or the refusal).

        ``store``: the dtype ``result`` is stored into, and whether in place (see
        :func:`~promo_ns._report.storing_into`): each policy's outcome is then what that array holds.
        """
        key: tuple[Any, ...] = (op, store, *((o.dtype, o.role, o.value) for o in operands))
        scope = current()
        ran = scope.policy if scope is not None else None
        ran_first = ran is None or ran is self.policies[0]
        if not ran_first:  # a policy block inside the comparison ran it: the first policy's is decided too
            key = (*key, ran)
        outcomes = self._decided.get(key, ())
        if outcomes == ():
            if not ran_first:
                first = _outcome(self.policies[0], op, operands, store)
            elif store is None or isinstance(result, str):  # a dtype made, or the refusal
                first = str(result)
            else:  # what the array it is stored into holds
                first = _stored(self.policies[0], op, result, store)
            others = tuple(_outcome(p, op, operands, store) for p in self.policies[1:])
            outcomes = None if all(o == first for o in others) else (first, *others)
            self._decided[key] = outcomes
        if outcomes is not None:
            described = tuple(o.describe() for o in operands)
            if store is not None and not store[1]:
                described = (*described, f"out={store[0]}")
            self._keep(f"{op}=" if store is not None and store[1] else op, described, outcomes)

    def _keep(self, op: str, described: tuple[str, ...], outcomes: tuple[str, ...]) -> None:
        """Keep the record of ``op`` at the user's line, whose ``outcomes`` (one per policy) differ."""
        location, source = _user_line()
        names = [p.name for p in self.policies]
        self._add(Difference(op, described, dict(zip(names, outcomes, strict=True)), location, source, 1))

    def _add(self, found: Difference) -> None:
        key = (found.op, found.operands, found.location)
        with self._lock:
            before = self._found.get(key)
            self._found[key] = found if before is None else replace(before, count=before.count + found.count)

    def merge(self, other: Comparison) -> None:
        """Add ``other``'s records (of the same policies) to this report: counts of one op and line add up."""
        for found in other.differences:
            self._add(found)

    @classmethod
    def from_json(cls, text: str) -> Comparison:
        """The report :meth:`to_json` wrote."""
        data = json.loads(text)
        report = cls([get_policy(name) for name in data["policies"]], None)
        for d in data["differences"]:
            report._add(Difference(**{**d, "operands": tuple(d["operands"])}))
        return report

    # -- the report --
    @property
    def differences(self) -> list[Difference]:
        """The ops whose outcome differs, one record per op, operands and line; most frequent first."""
        with self._lock:
            found = list(self._found.values())
        return sorted(found, key=lambda d: (-d.count, d.location, d.op))

    def __iter__(self) -> Iterator[Difference]:  # type: ignore[override]
        return iter(self.differences)

    def __len__(self) -> int:
        return len(self._found)

    def __str__(self) -> str:
        names = [p.name for p in self.policies]
        found = self.differences
        if not found:
            return f"no op decided differently under {', '.join(names)} (ran under {names[0]})"
        by_line: dict[str, list[Difference]] = {}
        for d in found:
            by_line.setdefault(d.location, []).append(d)
        lines = [
            f"{_counted(len(found), 'op')} decided differently under {', '.join(names)} "
            f"(ran under {names[0]}), on {_counted(len(by_line), 'line')}:"
        ]
        for location, diffs in sorted(by_line.items(), key=lambda kv: -sum(d.count for d in kv[1])):
            lines.append(f"\n{location}: {diffs[0].source}")
            for d in diffs:
                outcome = "  ".join(f"{name}: {d.results[name]}" for name in names)
                lines.append(f"  {d.count:>6}x  {d.op}({', '.join(d.operands)})  ->  {outcome}")
        return "\n".join(lines)

    def to_json(self) -> str:
        """The report as JSON: the policies and every difference."""
        return json.dumps(
            {"policies": [p.name for p in self.policies], "differences": [d.to_dict() for d in self]},
            indent=1,
        )

    def to_markdown(self) -> str:
        """The report as a Markdown table, one row per difference."""
        names = [p.name for p in self.policies]
        rows = [
            f"| location | code | op | operands | {' | '.join(names)} | count |",
            f"|---|---|---|---|{'---|' * len(names)}---:|",
        ]
        for d in self:
            code = d.source.replace("|", "\\|")
            rows.append(
                f"| `{d.location}` | `{code}` | `{d.op}` | {', '.join(d.operands)} | "
                f"{' | '.join(d.results[n] for n in names)} | {d.count} |"
            )
        return "\n".join(rows) + "\n"

    def __repr__(self) -> str:
        return f"<promo_ns comparison of {', '.join(p.name for p in self.policies)}: {len(self)} differences>"


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _operands(operands: Reported) -> tuple[Operand, ...]:
    """The engine's operands: dtype and role, and a Python scalar's value (an array's is not needed)."""
    return tuple(
        Operand(d, r, x.item() if r is Role.NP_SCALAR else x if d is None else None) for d, r, x in operands
    )


def _stored(policy: Policy, op: str, result: DType, store: tuple[DType, bool]) -> str:
    """What an array of ``store``'s dtype holds of ``op``'s ``result`` under ``policy``, or the refusal."""
    try:
        return str(output_dtype(policy, op, result, store[0]))
    except PromotionError:
        return "refused (PromotionError)"


#: Functions whose results keep each operand's dtype, where the policy takes them (:func:`.check_kept`).
_KEPT = frozenset({"meshgrid"})


def _kept(operands: Sequence[Operand]) -> str:
    """The dtypes of the results of a function that keeps each operand's (:data:`_KEPT`)."""
    return ", ".join(str(o.dtype) for o in operands)


def _outcome(
    policy: Policy, op: str, operands: tuple[Operand, ...], store: tuple[DType, bool] | None = None
) -> str:
    """What ``policy`` makes of ``op`` on ``operands``: the result dtype's name, or the refusal.

    ``store``: the dtype the result is stored into: what that array holds instead.
    """
    if store is not None:
        made = _outcome(policy, op, operands)
        return made if made.startswith("refused") else _stored(policy, op, canonical(made), store)
    operands = tuple(as_taken(policy, o) for o in operands)
    try:
        if op in _KEPT:
            check_kept(policy, op, operands)
            return _kept(operands)
        if op.endswith("=") and len(operands) == 2:  # stored in x's dtype where the policy allows it
            resolve(policy, op[:-1], *operands, inplace=True)
            return str(operands[0].dtype)
        if len(operands) == 1 and operands[0].dtype is not None and op != "result_type":
            dtype = operands[0].dtype
            if op in COMPLEX_LIKE:  # decided by another's cell, complex
                return str(complex_like(function_dtype(policy, COMPLEX_LIKE[op], dtype)))
            check_input_kind(policy, op, dtype)
            if op in _ACCUMULATING:
                return str(accumulation_dtype(policy, op, dtype))
            if op in DELEGATED_DTYPES:
                return str(delegated_dtype(policy, op, dtype))
            return str(function_dtype(policy, op, dtype))
        return str(resolve_many(policy, op, operands))
    except (PromotionError, OverflowError, ValueError) as e:
        return f"refused ({type(e).__name__})"


def _user_line() -> tuple[str, str]:
    """``path:line`` of the innermost frame outside promo_ns (and torch), and its line of code.

    Under :func:`~promo_ns.torch_policy` torch's operator dispatch sits between
    the user's line and promo_ns.
    """
    torch = sys.modules.get("torch")
    inside = (_PACKAGE, os.path.dirname(torch.__file__) + os.sep) if torch and torch.__file__ else _PACKAGE
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(inside):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return "<unknown>", ""
    path, line = frame.f_code.co_filename, frame.f_lineno
    source = linecache.getline(path, line).strip()
    here = os.getcwd() + os.sep
    return f"{path[len(here) :] if path.startswith(here) else path}:{line}", source


class _CompareBlock(_Block):
    """What :func:`compare` returns: a ``policy`` block of the first policy that compares with the others."""

    __slots__ = ("names",)

    def __init__(self, names: tuple[str | Policy, ...]) -> None:
        super().__init__()
        self.names = names

    def __repr__(self) -> str:
        return f"promo_ns.compare({', '.join(repr(getattr(n, 'name', n)) for n in self.names)})"

    def _scope(self, outer: Scope | None) -> tuple[Scope, Comparison]:
        chosen = [get_policy(n) for n in self.names]
        comparison = Comparison(chosen, outer.tracer if outer else None)
        return Scope(chosen[0], comparison, outer), comparison

    def _hooks(self, scope: Scope, hooks: ExitStack) -> None:
        assert scope.policy is not None
        for hook in BLOCK_HOOKS:
            hooks.enter_context(hook(scope.policy))


def compare(*policies: str | Policy) -> _CompareBlock:
    """Run the ``with`` block under the first policy, and report the ops the others decide otherwise.

    Code in the block runs exactly as under ``promo_ns.policy(policies[0])``.
    Every op promo_ns decides and runs there (operators and their in-place
    forms, the functions of two or more operands, one-array functions and
    reductions that cast) is also decided under the other policies; where the
    result dtype or the refusal differs, the report keeps the op, its
    operands, each policy's outcome, the first line of code outside promo_ns
    and a count.  Like ``policy()``, the block is local to its thread and
    asyncio task; a ``policy`` block inside it changes the policy the code
    runs under, and its ops are still reported by each compared policy's outcome.

    Parameters
    ----------
    *policies
        Two or more registered policy names or :class:`Policy` objects; the first runs the code.

    Returns
    -------
    AbstractContextManager[Comparison]
        The block; ``with promo_ns.compare("numpy", "pytorch") as report`` gives the report:
        ``report.differences``, ``print(report)``, ``report.to_json()``, ``report.to_markdown()``.

    Raises
    ------
    ValueError
        Fewer than two policies.

    Notes
    -----
    An operator or function of two operands that the first policy refuses is
    recorded, then raises as it would; the code after it does not run.
    """
    if len(policies) < 2:
        raise ValueError(
            f"compare() takes two or more policies, the first to run the code under, got {len(policies)}: "
            "e.g. promo_ns.compare('numpy', 'pytorch')"
        )
    return _CompareBlock(policies)


def run_script(
    policies: Sequence[str | Policy], path: str, args: Sequence[str] = ()
) -> tuple[Comparison, int]:
    """Run the Python script ``path`` (with ``args`` as its ``sys.argv[1:]``) inside ``compare(*policies)``.

    Parameters
    ----------
    policies
        Two or more policies; the first runs the script.
    path
        The script, run as ``__main__`` with its folder first on ``sys.path``, as ``python path`` would.
    args
        Its command-line arguments.

    Returns
    -------
    tuple[Comparison, int]
        The report, and the script's exit status: 0, its ``sys.exit`` code, or 1 where it raised (its
        traceback printed to stderr from the script's first frame, as ``python path`` prints it).
    """
    argv, folder = sys.argv, os.path.dirname(os.path.abspath(path))
    sys.argv = [path, *args]
    sys.path.insert(0, folder)
    status = 0
    linecache.checkcache(path)  # the report quotes the script's lines as they are now
    try:
        with compare(*policies) as report:
            try:
                runpy.run_path(path, run_name="__main__")
            except SystemExit as e:
                if e.code is not None and not isinstance(e.code, int):
                    print(e.code, file=sys.stderr)
                status = e.code if isinstance(e.code, int) else int(e.code is not None)
            except Exception as e:  # the report of what ran before it is what the user came for
                _print_from(os.path.abspath(path), e)
                status = 1
    finally:
        sys.argv = argv
        sys.path.remove(folder)
    return report, status


def _print_from(script: str, error: BaseException) -> None:
    """``error``'s traceback on stderr, from ``script``'s first frame on (not runpy's nor promo_ns's)."""
    tb = error.__traceback__
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != script:
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb or error.__traceback__, file=sys.stderr)
