"""Torch's function mode that runs the ops whose dtype the policy decides through promo_ns; the operators."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

import torch
from torch.overrides import TorchFunctionMode, handle_torch_function, has_torch_function

from promo_ns._context import current
from promo_ns._convert import wrap
from promo_ns._dtypes import INT_RANGE, canonical, int64
from promo_ns._engine.operands import Operand, PromotionError
from promo_ns._engine.resolution import inplace_dtype, output_dtype
from promo_ns._memo import per_policy
from promo_ns._namespace import namespace
from promo_ns._ops import COMPARISONS, OPERATORS
from promo_ns._plan import INPLACE, PREPARE, prepared_done
from promo_ns._report import storing_into
from promo_ns.audit.torch_policy._binary import FUNCTION, OPERATOR_PATHS, SPELLINGS, operands
from promo_ns.audit.torch_policy._call import (
    ArgumentError,
    Call,
    Calls,
    Decided,
    InPlace,
    Translator,
    check_out_dtypes,
    check_outs_writable,
    index_results,
    is_operand,
    overlaps_an_input,
    tensors_among,
    torchs_own_error,
)
from promo_ns.audit.torch_policy._creation import CREATION
from promo_ns.audit.torch_policy._functions import FUNCTIONS
from promo_ns.audit.torch_policy._linalg import FFT, LINALG
from promo_ns.audit.torch_policy._nn import NN
from promo_ns.backends._torch_numerics import cast
from promo_ns.backends.torch import check_writable
from promo_ns.policies import Policy, Role

__all__ = ["OPERATORS_OPEN", "PolicyMode", "deciding"]

#: Every torch callable the policy concerns -> its binary op and spelling, or its translator: one
#: lookup for every call in the block, a miss for those it does not concern.
_ROUTES: dict[Callable[..., Any], tuple[str, int] | Translator] = {
    **FUNCTIONS,
    **LINALG,
    **FFT,
    **NN,
    **CREATION,
    **SPELLINGS,
}


#: Whether this context (thread, asyncio task) is inside a ``torch_policy`` block: the mode, on the
#: thread's stack while any block there is open, decides only for contexts that are.
_DECIDING: ContextVar[_Block | None] = ContextVar("promo_ns_torch_policy", default=None)


class _Block:
    """One ``torch_policy`` block: closed when it ends, in whatever context; ``outer`` the one around it."""

    __slots__ = ("closed", "outer")

    def __init__(self, outer: _Block | None) -> None:
        self.outer = outer
        self.closed = False


def _inside() -> bool:
    """Whether this context is inside an open ``torch_policy`` block (one closed elsewhere is skipped)."""
    block = _DECIDING.get()
    while block is not None and block.closed:
        block = block.outer
    return block is not None


#: Creation keywords that the result's conversion honours where torch takes them (see ``_creation``).
_FORMATS = frozenset(("layout", "memory_format"))


def _reported_as_stored(target: Any, *, in_place: bool) -> contextlib.AbstractContextManager[None]:
    """Within, a compare reports what tensor ``target`` holds of each op (see :func:`storing_into`).

    Nothing where ``target`` is no tensor (None, a tuple of ``out=`` tensors) or of a dtype
    promo_ns has not.
    """
    if not isinstance(target, torch.Tensor):
        return contextlib.nullcontext()
    try:
        dtype = canonical(target.dtype)
    except TypeError:
        return contextlib.nullcontext()
    return storing_into(dtype, in_place=in_place)


class PolicyMode(TorchFunctionMode):
    """torch's function mode that runs the ops whose dtype depends on their operands through promo_ns.

    Under the policy of the innermost ``policy`` block (``torch_policy`` opens one).
    """

    def __init__(self) -> None:
        super().__init__()
        self.xp = namespace("torch")

    # Dynamo neither traces nor compiles this frame: under torch.compile each torch call in a
    # block is a graph break, run eagerly.  Non-recursive: no cost beyond one Python call.
    @torch.compiler.disable(recursive=False)  # type: ignore[no-untyped-call,untyped-decorator]
    def __torch_function__(
        self,
        func: Callable[..., Any],
        types: Any,
        args: tuple[Any, ...] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        route = _ROUTES.get(func)
        if route is None or not _inside():  # an op the policy does not concern, or another task's
            return func(*args, **kwargs) if kwargs else func(*args)
        if types:  # tensor subclasses: theirs to run, as the op the policy decides
            return self._subclassed(func, route, types, args, kwargs or {})
        return self._decided(func, route, args, kwargs or {})

    def _subclassed(
        self,
        func: Callable[..., Any],
        route: tuple[str, int] | Translator,
        types: tuple[type, ...],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> Any:
        """``func`` of tensor subclasses: each one's ``__torch_function__`` given the op the policy decides.

        As torch dispatches: the most derived class first, the next where one
        returns ``NotImplemented``.  torch's default (a subclass that writes
        none) runs the op and gives its results the subclass; a subclass's own
        pre- and post-processing wraps the policy's op as it would wrap torch's.
        """

        @functools.wraps(func)
        def decided(*args: Any, **kwargs: Any) -> Any:
            return self._decided(func, route, args, kwargs)

        for cls in types:
            result = cls.__torch_function__(decided, types, args, kwargs)  # type: ignore[attr-defined]
            if result is not NotImplemented:
                return result
        names = ", ".join(cls.__name__ for cls in types)
        raise TypeError(f"no implementation found for {func.__name__!r} on types {names}")

    # torch.compile runs the ops the policy decides eagerly, as promo_ns computes them: its plans,
    # caches and policy context are not for Dynamo to trace or compile.
    @torch.compiler.disable  # type: ignore[untyped-decorator]
    def _decided(
        self,
        func: Callable[..., Any],
        route: tuple[str, int] | Translator,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> Any:
        """``func`` as promo_ns decides it: the namespace's op, or torch's own where it is another call."""
        out = kwargs.get("out")
        with _own_calls():
            if out is not None and (
                func in CREATION or _differentiated(args, kwargs) or overlaps_an_input(out, args, kwargs)
            ):  # an out over part of an input: torch's own refusal
                check_outs_writable(func, out)  # torch writes an inference tensor, then raises
                return func(*args, **kwargs)  # out='s dtype is the dtype asked for; torch's own error
            if func in CREATION and _FORMATS.intersection(kwargs):  # torch's own refusals of a format first
                on_meta = {k: v for k, v in kwargs.items() if k not in ("pin_memory", "requires_grad")}
                func(*args, **{**on_meta, "device": "meta"})  # nothing made: shapes and formats only
            computing = {k: v for k, v in kwargs.items() if k != "out"} if "out" in kwargs else kwargs
            if func in _IN_OUTS_DTYPE and isinstance(out, torch.Tensor) and computing.get("dtype") is None:
                computing["dtype"] = out.dtype  # torch computes these in out's dtype, as with dtype=
            try:
                with _reported_as_stored(out, in_place=False):
                    if isinstance(route, tuple):
                        found = self._binary(func, route, args, dict(computing))
                    else:
                        found = self._translated(route, args, computing)
                if found is not _TORCHS and out is not None:
                    found = self._into(func, found, out, (args, kwargs))
            except TypeError as e:  # promo_ns's: an operator lets it through (see _letting_refusals_through)
                e.promo_ns_decided = True  # type: ignore[attr-defined]
                raise
            except (ValueError, IndexError, ArithmeticError) as e:  # torch's own error, where it refuses too
                writes = isinstance(route, tuple) and route[1] in (INPLACE, PREPARE)
                own = None if isinstance(e, OverflowError) else torchs_own_error(func, args, kwargs, writes)
                if own is None:
                    raise
                raise own from e
        return func(*args, **kwargs) if found is _TORCHS else found

    def _into(self, func: Callable[..., Any], found: Any, out: Any, call: tuple[Any, Any]) -> Any:
        """``found`` stored in torch's ``out=`` tensor (or tuple of them), as torch stores its result.

        Each result is cast to its ``out``'s dtype where the policy's in-place
        rule casts it and torch's ``call`` takes such an ``out``, ``out`` resized
        as torch resizes it (warning where it had elements); what torch returns:
        ``out``, or a named tuple of them.

        Raises
        ------
        PromotionError
            The policy does not cast a result to its ``out``'s dtype; every ``out`` is unchanged.
        InferenceTensorError
            An ``out`` is an inference tensor, outside inference mode; every ``out`` is unchanged.
        """
        results = found if isinstance(found, tuple) else (found,)
        outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        if isinstance(out, (tuple, list)) != isinstance(found, tuple):
            return _TORCHS  # one out for several results, or a sequence for one: torch's own error
        if not all(isinstance(o, torch.Tensor) for o in outs):
            return _TORCHS
        if len(outs) != len(results) or any(o.device != r.device for o, r in zip(outs, results, strict=True)):
            return _TORCHS
        if any(outs[i].dtype != torch.int64 for i in index_results(func, found)):
            return _TORCHS  # torch's kernels write indices into int64 outs only: its own error
        policy = self.xp.policy_now()
        for o, r in zip(outs, results, strict=True):
            output_dtype(policy, f"torch.{func.__name__}", canonical(r.dtype), canonical(o.dtype))
        check_out_dtypes(func, *call, outs, results)
        check_outs_writable(func, outs)
        for o, r in zip(outs, results, strict=True):  # every out resized before any is written
            _resize_output(o, r.shape)
        for o, r in zip(outs, results, strict=True):
            o.copy_(r)
        if not isinstance(found, tuple):
            return out
        named = getattr(torch.return_types, f"{type(found).__name__}_out", None)
        return named(outs) if named is not None else outs

    def _binary(
        self, func: Callable[..., Any], route: tuple[str, int], args: Any, kwargs: dict[str, Any]
    ) -> Any:
        """The promo_ns op of a binary spelling on torch's arguments: a tensor, or :data:`_TORCHS`."""
        op, spelling = route
        values = operands(op, args, kwargs)
        if values is None:  # another signature (torch.where(c)), or an operand promo_ns does not take
            return _TORCHS
        if spelling != FUNCTION and not isinstance(values[0], torch.Tensor):
            return _TORCHS  # torch.Tensor.add_(1, x): torch's own error
        if func is torch.Tensor.where:  # x.where(condition, y) is torch.where(condition, x, y)
            values[:2] = values[1::-1]
        xp = self.xp
        target = spelling in (INPLACE, PREPARE)  # values[0] is written: it stays where it is
        away = _away(values)
        if away is not None:  # a CPU 0-d tensor takes part as torch takes it, on the other tensors' device
            values = [
                v.to(away)
                if i >= target and isinstance(v, torch.Tensor) and not v.ndim and v.device.type == "cpu"
                else v
                for i, v in enumerate(values)
            ]
        try:
            wrapped = [wrap(v, xp) if isinstance(v, torch.Tensor) else v for v in values]
        except TypeError:  # a dtype promo_ns has not (float8, complex32): torch's own
            return _TORCHS
        if spelling == FUNCTION:
            return getattr(xp, op)(*wrapped)._x
        if spelling == PREPARE:  # x[key] = value: the policy's value, torch's own indexing
            plan, _, value = OPERATOR_PATHS[(op, PREPARE)](wrapped[0], wrapped[1])
            self._set(func, values[0], args[1], value)
            prepared_done(op, wrapped[0], wrapped[1], plan, value)
            return None
        out = OPERATOR_PATHS[(op, spelling)](wrapped[0], wrapped[1])
        if spelling != INPLACE:
            return out._x
        if out._x is not values[0]:  # computed into a new tensor: x's storage takes it
            values[0].copy_(out._x)
        return values[0]

    def _set(self, setitem: Callable[..., Any], x: torch.Tensor, key: Any, value: Any) -> None:
        """``x[key] = value`` with the value the policy's setitem gives, by torch's own indexing.

        torch's keys keep their meaning (a list of indices is a tuple, a uint8
        tensor a mask); the value goes in ``x``'s dtype, as the namespace writes
        it (``index_put`` takes no other).  Where torch has no kernel (uint16..64
        by an index tensor) or no conversion (an int beyond int64 into uint64),
        the namespace's own write does it.
        """
        if isinstance(value, torch.Tensor):
            value = cast(value, x.dtype)
        check_writable("setitem", x)
        if value.__class__ is int and value > _INT64_MAX:
            self.xp._backend.setitem(x, key, value)
            return
        try:
            setitem(x, key, value)
        except NotImplementedError:  # refused before writing
            self.xp._backend.setitem(x, key, value)

    def _translated(self, translator: Translator, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The namespace's call of a translated torch call: its torch result, or :data:`_TORCHS`."""
        if "input" in kwargs:  # torch's name of the first tensor (torch.std(input=x)), as translators take it
            kwargs = dict(kwargs)
            args = (kwargs.pop("input"), *args)
        try:
            call = translator(*args, **kwargs)
        except ArgumentError:
            raise
        except TypeError:  # another overload: torch's own function
            return _TORCHS
        if call is None:
            return _TORCHS
        return self._stored(call) if isinstance(call, InPlace) else self._call(call)

    def _stored(self, inplace: InPlace) -> torch.Tensor:
        """An in-place form: its call's result stored in its tensor, where the policy casts it back.

        Raises
        ------
        PromotionError
            The policy refuses the call, or does not cast its result's dtype back to the
            tensor's (as for ``x.add_(y)``); the tensor is unchanged.
        InferenceTensorError
            The tensor is an inference tensor, outside inference mode; it is unchanged.
        """
        target = inplace.target
        with _reported_as_stored(target, in_place=True):
            out = self._call(inplace.call)
        if out.dtype != target.dtype:
            left = Operand(canonical(target.dtype), Role.ND)
            inplace_dtype(self.xp.policy_now(), inplace.call.name, (left,), canonical(out.dtype))
        check_writable(f"in-place {inplace.call.name!r}", target)
        return target.copy_(out)

    def _call(self, call: Call | Calls | Decided) -> Any:
        """The namespace's function of ``call``, tensors wrapped and torch dtypes its own: torch's result."""
        if isinstance(call, Calls):
            return call.combine(*(self._call(c) for c in call.calls))
        if isinstance(call, Decided):
            return call.compute(self._decided_dtype(call))
        xp = self.xp
        away = _away([*call.args, *call.kwargs.values()])

        def ours(v: Any) -> Any:
            if isinstance(v, torch.Tensor):
                return wrap(
                    v.to(away) if away is not None and not v.ndim and v.device.type == "cpu" else v, xp
                )
            if isinstance(v, Call):  # a decision the call's depends on (decided_over)
                return wrap(self._call(v), xp)
            if isinstance(v, list):
                return [ours(t) for t in v]
            if isinstance(v, tuple):
                return tuple(ours(t) for t in v)
            return getattr(xp, str(v).removeprefix("torch.")) if isinstance(v, torch.dtype) else v

        first = call.args[0] if call.args else None
        scalar = (
            isinstance(first, torch.Tensor)
            and first.ndim == 0
            and call.name in _REDUCING
            and call.kwargs.get("axis") in _ITS_AXIS
        )
        if scalar:  # torch takes dim 0 or -1 of a 0-d tensor as its one element, the standard no axis
            call = call._replace(args=(call.args[0].reshape(1), *call.args[1:]))
        arguments = [ours(a) for a in call.args]
        if call.name == "__matmul__":
            out = arguments[0] @ arguments[1]
        else:
            owner, _, short = call.name.rpartition(".")
            fn = getattr(getattr(xp, owner) if owner else xp, short)
            out = fn(*arguments, **{k: ours(v) for k, v in call.kwargs.items()})
        result = _native(out)
        if scalar:
            result = result.reshape(())
        return result if call.after is None else call.after(result)

    def _decided_dtype(self, decided: Decided) -> torch.dtype:
        """The dtype the policy gives ``decided``'s operands: decided once per signature and policy.

        Inside a ``trace`` or ``compare`` block it is decided every time, so the block hears of it.
        """
        scope = current()
        signature = decided.signature()
        if signature is None or (scope is not None and scope.tracer is not None):
            return self._call(decided.decision()).dtype  # type: ignore[no-any-return]
        decisions = _decisions(self.xp.policy_now())
        key = (decided.name, signature)
        found = decisions.get(key)
        if found is None:
            found = decisions[key] = self._call(decided.decision()).dtype
        return found


@per_policy
def _decisions(policy: Policy) -> dict[tuple[str, tuple[Any, ...]], torch.dtype]:
    """(op, operands' signature) -> the dtype ``policy`` decided (:meth:`PolicyMode._decided_dtype`)."""
    return {}


def _away(values: list[Any]) -> torch.device | None:
    """The device of the first tensor of ``values`` (or in a list or tuple of them) off the CPU, if any.

    torch takes a CPU 0-d tensor with tensors of any device, as a scalar; the
    namespace takes arrays of one device, so such a tensor moves there first.
    """
    return next((t.device for t in tensors_among(values) if t.device.type != "cpu"), None)


def _own_calls() -> contextlib.AbstractContextManager[Any]:
    """Where promo_ns's own torch calls go: to the function modes below this one (a user's), if any.

    Inside a mode's handler torch has popped the mode itself; with no other
    mode on the stack the calls skip torch's function dispatch altogether.
    """
    if torch._C._len_torch_function_stack():
        return contextlib.nullcontext()
    return torch._C.DisableTorchFunction()


#: A 0-d tensor's ``dim`` torch takes (``torch.sum(t, 0)``, ``t.sort(-1)``), as the namespace's ``axis``,
#: in the reductions and scans that take it (torch's ``fft`` and ``diff`` refuse a 0-d tensor).
_ITS_AXIS = (0, -1, (0,), (-1,))
_REDUCING = frozenset(
    (
        *("sum", "prod", "mean", "std", "var", "max", "min", "argmax", "argmin", "all", "any"),
        *("cumulative_sum", "cumulative_prod", "sort", "argsort"),
    )
)

#: A translator's answer that torch's own function runs.
_TORCHS = object()
#: Reductions and scans torch computes in their ``out``'s dtype (``torch.sum(x, 0, out=f64)``).
_IN_OUTS_DTYPE = frozenset((torch.sum, torch.prod, torch.cumsum, torch.cumprod, torch.mean, torch.nansum))
#: The largest Python int torch's own setitem converts (a C ``long long``); uint64 holds more.
_INT64_MAX = INT_RANGE[int64][1]


def _resize_output(out: torch.Tensor, shape: torch.Size) -> None:
    """``out`` resized to ``shape`` as torch resizes an ``out=`` tensor: warning where it had elements."""
    if out.shape == shape:
        return
    if out.numel() != 0:
        warnings.warn(
            "An output with one or more elements was resized since it had shape "
            f"{list(out.shape)}, which does not match the required output shape {list(shape)}. "
            "This behavior is deprecated, and in a future PyTorch release outputs will not be resized "
            "unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, "
            "inplace, to zero elements with t.resize_(0).",
            UserWarning,
            stacklevel=_users_frame(),
        )
    out.resize_(shape)


#: Where torch's and promo_ns's code lies: frames the warning skips to reach the user's line.
_LIBRARIES = (os.path.dirname(torch.__file__), os.path.dirname(os.path.dirname(os.path.dirname(__file__))))


def _users_frame() -> int:
    """The ``stacklevel`` of the first frame, from its caller's caller, outside torch and promo_ns."""
    level, frame = 2, sys._getframe(2)
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_LIBRARIES):
        level, frame = level + 1, frame.f_back
    return level


def _differentiated(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether autograd records the call (a tensor requires its gradient), where torch refuses ``out=``."""
    if not torch.is_grad_enabled():
        return False
    return any(t.requires_grad for t in tensors_among((*args, *kwargs.values())))


def _native(out: Any) -> Any:
    """A namespace's result (an array, or a tuple or named tuple of them) as torch's."""
    if isinstance(out, tuple):
        parts = [_native(o) for o in out]
        return type(out)(*parts) if hasattr(out, "_fields") else type(out)(parts)
    return out._x


# --- the operators ----------------------------------------------------------------------------
# torch turns every TypeError inside ``x + y`` (its C operators, and its Python wrapper of the
# reflected ones) into NotImplemented, so Python would answer a policy's refusal with its own
# "unsupported operand type(s)".  While a block is open, the operators are functions that send
# the call to the function mode as torch does, but let a PromotionError through.

#: Operator names (``__add__``, ``__radd__``, ``__iadd__``, ``__matmul__``) -> torch's own, as found
#: at import.
_TORCH_OPERATORS = {
    name: getattr(torch.Tensor, name)
    for op, dunder in {**OPERATORS, "matmul": "matmul"}.items()
    for name in (
        (f"__{dunder}__",)
        if op in COMPARISONS
        else (f"__{dunder}__", f"__r{dunder}__", *((f"__i{dunder}__",) if op != "matmul" else ()))
    )
}
#: Those ``torch.Tensor`` defines itself (the others it inherits from ``torch._C.TensorBase``).
_OWN = frozenset(name for name in _TORCH_OPERATORS if name in vars(torch.Tensor))


def _letting_refusals_through(original: Callable[..., Any]) -> Callable[..., Any]:
    """Torch's operator ``original``, whose PromotionError from the function mode reaches the caller.

    While Dynamo traces it (``torch.compile``), ``has_torch_function`` is False
    (Dynamo keeps the mode on a stack of its own): then too the call goes
    through ``handle_torch_function``, not into torch's operator, which would
    turn the refusal into NotImplemented.
    """

    @functools.wraps(original)
    def op(self: Any, other: Any) -> Any:
        if not torch.compiler.is_compiling() and not has_torch_function((self, other)):
            return original(self, other)  # no mode (another thread), no subclass
        if not is_operand(other):  # a str, a list, an np.longdouble: torch's own answer
            with torch._C.DisableTorchFunction():
                return original(self, other)
        try:
            return handle_torch_function(original, (self, other), self, other)
        except TypeError as e:  # promo_ns's (a refusal, a missing kernel) reaches the caller; torch's own not
            if isinstance(e, PromotionError) or getattr(e, "promo_ns_decided", False):
                raise
            return NotImplemented

    return op


class _Operators:
    """The operators of ``torch.Tensor`` while blocks are open (in any thread), torch's own otherwise."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open = 0

    def __enter__(self) -> None:
        with self._lock:
            if self._open == 0:
                for name, fn in _TORCH_OPERATORS.items():
                    setattr(torch.Tensor, name, _letting_refusals_through(fn))
            self._open += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._open -= 1
            if self._open == 0:
                for name, fn in _TORCH_OPERATORS.items():
                    if name in _OWN:
                        setattr(torch.Tensor, name, fn)
                    else:
                        delattr(torch.Tensor, name)


#: The operators' state, shared by every block.
OPERATORS_OPEN = _Operators()


class _ThreadModes(threading.local):
    """A thread's function mode and the number of blocks open there: on its stack while one is."""

    def __init__(self) -> None:
        self.mode: PolicyMode | None = None
        self.open = 0


_THREAD_MODES = _ThreadModes()


@contextlib.contextmanager
def deciding() -> Iterator[None]:
    """Torch's ops the policy concerns decided in this context (thread, asyncio task) until the block ends.

    A block ended in another context (a generator finished elsewhere) is
    closed for every context that holds it; one ended in another thread leaves
    the mode on its own thread's stack, deciding nothing there.
    """
    modes, thread = _THREAD_MODES, threading.get_ident()
    if modes.open == 0:
        modes.mode = PolicyMode()
        modes.mode.__enter__()  # type: ignore[no-untyped-call]
    modes.open += 1
    block = _Block(_DECIDING.get())
    token = _DECIDING.set(block)
    try:
        yield
    finally:
        block.closed = True
        with contextlib.suppress(ValueError):  # ended in another context: the one holding it skips it
            _DECIDING.reset(token)
        if threading.get_ident() == thread:
            modes.open -= 1
            if modes.open == 0 and modes.mode is not None:
                modes.mode.__exit__(None, None, None)  # type: ignore[no-untyped-call]
                modes.mode = None
