"""``torch_policy``: plain ``torch.Tensor`` code under a promo_ns policy, through torch's function mode.

Inside the block, torch's binary elementwise ops (``torch.add``, ``Tensor.add``,
``Tensor.add_``, ``x + y``, ``1 + x``, ``x += y``, comparisons, ...), ``torch.where``,
``cat``/``stack``, ``matmul``/``@``, ``clamp``/``clip``, ``tensordot``, ``outer``,
``sum``/``prod``/``mean`` and one-array functions of one tensor alone (``torch.log(x)``)
run as the promo_ns op of the torch namespace under the policy:
its result dtype, values and refusals, the tensors wrapped and unwrapped
without copies, the results plain tensors on the operands' device.  Every
other torch function (and these with other arguments: ``out=``, ``alpha=``) runs as
torch's own, after a dictionary lookup and the function mode's own dispatch (a few
microseconds a call, while the block is open).  Inside
:func:`promo_ns.compare`, those ops are recorded at the user's line.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

import torch
from torch.overrides import TorchFunctionMode, handle_torch_function, has_torch_function

from promo_ns._engine import PromotionError
from promo_ns._namespace import namespace
from promo_ns._ops import COMPARISONS, NATIVE, OPERATORS
from promo_ns._plan import INPLACE, NORMAL, REFLECTED, operator, wrap
from promo_ns.policies import Policy, get_policy

__all__ = ["torch_policy"]

#: How a torch callable spells an op: the function (``torch.add``, ``Tensor.add``), or an
#: operator mode of :func:`promo_ns._plan.operator` (``x + y``, ``1 + x``, ``x += y``/``x.add_(y)``).
_FUNCTION = -1
#: torch names of the standard's ops where torch spells them otherwise (``torch.sub``).
_TORCH_ALIASES = {
    **{op: (op,) for op in ("subtract", "multiply", "greater", "greater_equal", "less", "less_equal")},
    "not_equal": ("not_equal",),
    "divide": ("divide", "true_divide"),
    "atan2": ("arctan2",),
}


def _spellings() -> dict[Callable[..., Any], tuple[str, int]]:
    """Every torch callable of a binary op (functions, methods, operators) -> (op, spelling)."""
    out: dict[Callable[..., Any], tuple[str, int]] = {}
    for op, (_, name) in NATIVE.items():
        for alias in (name, *_TORCH_ALIASES.get(op, ())):
            for owner in (torch, torch.Tensor):
                if (fn := getattr(owner, alias, None)) is not None:
                    out[fn] = (op, _FUNCTION)
            if (fn := getattr(torch.Tensor, f"{alias}_", None)) is not None:
                out[fn] = (op, INPLACE)
        if op in OPERATORS:
            dunder = OPERATORS[op]
            out[getattr(torch.Tensor, f"__{dunder}__")] = (op, NORMAL)
            if op not in COMPARISONS:
                out[getattr(torch.Tensor, f"__r{dunder}__")] = (op, REFLECTED)
                out[getattr(torch.Tensor, f"__i{dunder}__")] = (op, INPLACE)
    out[torch.where] = ("where", _FUNCTION)
    out[torch.Tensor.where] = ("where", _FUNCTION)
    return out


_SPELLINGS = _spellings()

#: A namespace call (function name, arguments, keyword arguments), or None: torch's own call.
_Call = tuple[str, tuple[Any, ...], dict[str, Any]] | None


def _sequence(name: str) -> Callable[..., _Call]:
    """``torch.cat``/``stack(tensors, dim=0)`` as the namespace's ``name(arrays, axis=dim)``."""

    def call(tensors: Any, dim: int = 0) -> _Call:
        if not isinstance(tensors, (list, tuple)) or not all(isinstance(t, torch.Tensor) for t in tensors):
            return None
        return name, (list(tensors),), {"axis": dim}

    return call


def _matmul(x: Any, y: Any, name: str = "matmul") -> _Call:
    return (name, (x, y), {}) if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor) else None


def _operator_matmul(x: Any, y: Any) -> _Call:
    """``x @ y``: the namespace's ``@`` (``__matmul__``), whose cells may differ from ``matmul``'s."""
    return _matmul(x, y, "__matmul__")


def _reflected_matmul(y: Any, x: Any) -> _Call:
    return _operator_matmul(x, y)


def _clip(x: Any, min: Any = None, max: Any = None) -> _Call:
    bounds = [b for b in (min, max) if b is not None]
    if not isinstance(x, torch.Tensor) or not bounds:  # no bound: torch's own error
        return None
    if not all(isinstance(b, (torch.Tensor, *_SCALARS)) for b in bounds):
        return None
    return "clip", (x,), {"min": min, "max": max}


def _one_array(name: str) -> Callable[..., _Call]:
    """``torch.<name>(x)`` of one tensor and nothing else as the namespace's ``name(x)``."""

    def call(x: Any) -> _Call:
        return (name, (x,), {}) if isinstance(x, torch.Tensor) else None

    return call


def _reduction(name: str) -> Callable[..., _Call]:
    """``torch.<name>(x, dim=None, keepdim=False, *, dtype=None)`` as the namespace's ``name``."""

    def call(x: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> _Call:
        if not isinstance(x, torch.Tensor) or not isinstance(dim, (int, tuple, list, type(None))):
            return None
        if dtype is not None and name == "mean":  # the standard's mean takes no dtype: torch's own
            return None
        axis = None if isinstance(dim, (tuple, list)) and not dim else dim  # torch: dim=[] is every axis
        kwargs: dict[str, Any] = {
            "axis": tuple(axis) if isinstance(axis, list) else axis,
            "keepdims": keepdim,
        }
        if dtype is not None:
            kwargs["dtype"] = str(dtype).removeprefix("torch.")
        return name, (x,), kwargs

    return call


def _tensordot(a: Any, b: Any, dims: Any = 2, out: Any = None) -> _Call:
    """``torch.tensordot(a, b, dims)`` as the namespace's ``tensordot(a, b, axes=dims)``."""
    tensors = isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)
    if not tensors or isinstance(dims, torch.Tensor) or out is not None:
        return None
    return "tensordot", (a, b), {"axes": dims if isinstance(dims, int) else tuple(map(tuple, dims))}


def _outer(a: Any, b: Any) -> _Call:
    tensors = isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)
    return ("linalg.outer", (a, b), {}) if tensors else None


#: One-array functions whose dtype the policy decides and that torch spells with the standard's
#: name and meaning when given one tensor alone (``torch.log(x)``, ``x.mean()``, ``x.sum()``);
#: ``std``/``var`` are not (torch's default correction is 1, the standard's 0), nor ``max``,
#: ``argmax``, ``round`` (other signatures).
_ONE_ARRAY = (
    *("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1"),
    *("floor", "log", "log10", "log1p", "log2", "negative", "positive", "reciprocal", "sign", "sin"),
    *("sinh", "sqrt", "square", "tan", "tanh", "trunc"),
)
#: Reductions torch spells with the standard's meaning: ``sum``/``prod``/``mean`` with ``dim``,
#: ``keepdim`` and ``dtype`` (the standard's ``axis``, ``keepdims``, ``dtype``).
_REDUCTIONS = ("sum", "prod", "mean")
#: Torch functions whose dtype depends on their operands -> their namespace call (name,
#: arguments, keyword arguments), or None for arguments the namespace does not take.
_CALLS: dict[Callable[..., Any], Callable[..., _Call]] = {
    **dict.fromkeys((torch.cat, torch.concat, torch.concatenate), _sequence("concat")),
    torch.stack: _sequence("stack"),
    **dict.fromkeys((torch.matmul, torch.Tensor.matmul), _matmul),
    torch.Tensor.__matmul__: _operator_matmul,
    torch.Tensor.__rmatmul__: _reflected_matmul,
    **dict.fromkeys((torch.clamp, torch.clip, torch.Tensor.clamp, torch.Tensor.clip), _clip),
    **{getattr(owner, name): _one_array(name) for name in _ONE_ARRAY for owner in (torch, torch.Tensor)},
    **{getattr(owner, name): _reduction(name) for name in _REDUCTIONS for owner in (torch, torch.Tensor)},
    **dict.fromkeys((torch.tensordot, torch.Tensor.__dict__.get("tensordot", torch.tensordot)), _tensordot),
    **dict.fromkeys((torch.outer, torch.Tensor.outer, torch.ger, torch.Tensor.ger), _outer),
}
#: (op, operator mode) -> promo_ns's binary path of that spelling, taking a promo_ns array first.
_OPERATORS = {(op, mode): operator(op, mode) for op, mode in set(_SPELLINGS.values()) if mode != _FUNCTION}
#: What a Python scalar operand may be (a bool, int, float or complex, as the namespace takes it).
_SCALARS = (bool, int, float, complex)


class _PolicyMode(TorchFunctionMode):
    """torch's function mode that runs the ops whose dtype depends on their operands through promo_ns."""

    def __init__(self, policy: Policy) -> None:
        super().__init__()
        self.xp = namespace("torch", policy=policy)

    # torch.compile runs the ops here eagerly (a graph break), as promo_ns computes them: its
    # plans, caches and policy context are not for Dynamo to trace.
    @torch.compiler.disable  # type: ignore[untyped-decorator]
    def __torch_function__(
        self,
        func: Callable[..., Any],
        types: Any,
        args: tuple[Any, ...] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        found = _SPELLINGS.get(func)
        if found is None:
            call = _CALLS.get(func)
            planned = None if call is None else _planned(call, args, kwargs or {})
            if planned is None:
                return func(*args, **(kwargs or {}))
            with torch._C.DisableTorchFunction():
                return self._call(*planned)
        op, spelling = found
        operands = _operands(op, args, dict(kwargs or {}))
        if operands is None:  # another signature (torch.where(c)), or an operand promo_ns does not take
            return func(*args, **(kwargs or {}))
        if spelling != _FUNCTION and not isinstance(operands[0], torch.Tensor):
            return func(*args, **(kwargs or {}))  # torch.Tensor.add_(1, x): torch's own error
        if func is torch.Tensor.where:  # x.where(condition, y) is torch.where(condition, x, y)
            operands[:2] = operands[1::-1]
        with torch._C.DisableTorchFunction():  # promo_ns's own torch calls: torch's, not an outer block's
            return self._run(op, spelling, operands)

    def _call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The namespace's function ``name``, tensors (and lists of them) wrapped: a tensor."""
        xp = self.xp

        def wrapped(v: Any) -> Any:
            if isinstance(v, list):
                return [wrapped(t) for t in v]
            return wrap(v, xp) if isinstance(v, torch.Tensor) else v

        arguments = [wrapped(a) for a in args]
        if name == "__matmul__":
            return (arguments[0] @ arguments[1])._x
        if isinstance(kwargs.get("dtype"), str):
            kwargs = {**kwargs, "dtype": getattr(xp, kwargs["dtype"])}
        owner, _, short = name.rpartition(".")
        fn = getattr(getattr(xp, owner) if owner else xp, short)
        return fn(*arguments, **{k: wrapped(v) for k, v in kwargs.items()})._x

    def _run(self, op: str, spelling: int, operands: list[Any]) -> Any:
        """The promo_ns op of ``spelling`` on the operands (tensors and Python scalars): a tensor."""
        xp = self.xp
        wrapped = [wrap(v, xp) if isinstance(v, torch.Tensor) else v for v in operands]
        if spelling == _FUNCTION:
            return getattr(xp, op)(*wrapped)._x
        out = _OPERATORS[(op, spelling)](wrapped[0], wrapped[1])
        if spelling != INPLACE:
            return out._x
        if out._x is not operands[0]:  # computed into a new tensor: x's storage takes it
            operands[0].copy_(out._x)
        return operands[0]


def _planned(
    call: Callable[..., _Call],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> _Call:
    """``call(*args, **kwargs)``; None where torch's arguments are not the signature it takes."""
    try:
        return call(*args, **kwargs)
    except TypeError:  # out=, another overload: torch's own function
        return None


def _operands(op: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any] | None:
    """The op's operands from torch's arguments; None where they are not tensors and Python scalars."""
    arity = 3 if op == "where" else 2
    values = list(args)
    for name in ("input", "other") if op != "where" else ("condition", "input", "other"):
        if name in kwargs:
            values.append(kwargs.pop(name))
    if kwargs:  # out=, alpha=, rounding_mode=: torch's own function
        return None
    if len(values) != arity or not all(isinstance(v, (torch.Tensor, *_SCALARS)) for v in values):
        return None
    if not isinstance(values[0], torch.Tensor) and not isinstance(values[-1], torch.Tensor):
        return None
    return values


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
    """Torch's operator ``original``, whose PromotionError from the function mode reaches the caller."""

    @functools.wraps(original)
    def op(self: Any, other: Any) -> Any:
        if not has_torch_function((self, other)):  # no mode (another thread), no subclass
            return original(self, other)
        if not isinstance(other, (torch.Tensor, *_SCALARS)):  # a NumPy scalar, a str: torch's own answer
            with torch._C.DisableTorchFunction():
                return original(self, other)
        try:
            return handle_torch_function(original, (self, other), self, other)
        except PromotionError:
            raise
        except TypeError:
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


_OPERATORS_OPEN = _Operators()


@contextlib.contextmanager
def torch_policy(policy: str | Policy) -> Iterator[Policy]:
    """Run plain ``torch.Tensor`` code in the block under ``policy``.

    Torch's binary elementwise ops in every spelling (``torch.add(x, y)``,
    ``x.add(y)``, ``x.add_(y)``, ``x + y``, ``1 + x``, ``x += y``,
    comparisons, ``torch.maximum``, ...), ``torch.where``, ``torch.cat``,
    ``torch.stack``, ``torch.matmul``/``@``, ``torch.clamp``/``clip``,
    ``torch.tensordot``, ``torch.outer``, ``sum``/``prod``/``mean`` (with
    ``dim``, ``keepdim``, ``dtype``) and the one-array functions of one
    tensor alone (``torch.log(x)``, ``x.exp()``) give the policy's dtypes,
    values and refusals; the results are plain tensors on the operands'
    device.  Every other torch function (and those with other arguments,
    ``out=``) runs as it is.

    Parameters
    ----------
    policy
        A registered policy name (``"numpy"``, ``"paddle"``, ...) or a :class:`Policy`.

    Yields
    ------
    Policy
        The policy in force.

    Raises
    ------
    PromotionError
        Inside the block, for an op the policy refuses (``int32 + float32`` under ``paddle``).

    Examples
    --------
    >>> import torch, promo_ns
    >>> with promo_ns.torch_policy("numpy"):
    ...     (torch.ones(2, dtype=torch.int32) + 1.5).dtype
    torch.float64
    """
    resolved = get_policy(policy) if isinstance(policy, str) else policy
    with _OPERATORS_OPEN, _PolicyMode(resolved):
        yield resolved
