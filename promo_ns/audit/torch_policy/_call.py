"""A torch call as the promo_ns namespace's call: what the function mode runs in place of torch's function.

Each module of this package maps torch callables to *translators*: a
translator takes the torch function's arguments, as torch takes them, and
returns the :class:`Call` of the namespace's function of the same meaning (an
:class:`InPlace` of it for an in-place form, ``x.sqrt_()``), or
None where torch's own function runs (another overload, ``out=``, an explicit
``dtype=`` the standard's function has no spelling for).  A translator whose
signature does not take the arguments raises TypeError, and torch's own
function runs too; one that takes an argument it cannot honour raises
:class:`ArgumentError`, which reaches the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import torch

from promo_ns._convert import is_numpy_scalar
from promo_ns._dtypes import canonical
from promo_ns._functions._common import WIDER
from promo_ns.backends.torch import check_writable

__all__ = [
    "SCALARS",
    "ArgumentError",
    "Call",
    "Calls",
    "Decided",
    "InPlace",
    "Translator",
    "axis",
    "both",
    "check_outs_writable",
    "computed",
    "decided_as",
    "decided_by",
    "decided_over",
    "in_place",
    "index_results",
    "is_dim",
    "is_operand",
    "one_array",
    "overlaps_an_input",
    "tensors",
    "tensors_among",
    "torchs_own_error",
    "unhonoured",
]

#: What a Python scalar operand may be (a bool, int, float or complex, as the namespace takes it).
SCALARS = (bool, int, float, complex)


def is_operand(value: Any) -> bool:
    """Whether ``value`` is an operand the namespace takes: a tensor, a Python or NumPy scalar.

    The policy says whether a NumPy scalar takes part as a Python scalar or as
    the 0-d array it is; one of no canonical dtype (``np.longdouble``,
    ``np.timedelta64``) is torch's to take.
    """
    return isinstance(value, (torch.Tensor, *SCALARS)) or is_numpy_scalar(value)


class Call(NamedTuple):
    """The namespace's function ``name`` (``"std"``, ``"linalg.solve"``) of ``args`` and ``kwargs``.

    Tensors among them (also inside lists and tuples) are wrapped as the
    namespace's arrays, a Call among them is the namespace's array of its
    result, and torch dtypes become the namespace's; ``after``, if
    any, takes the torch result (a tensor, or a tuple of them) and returns
    what the torch function returns (a view moved back, ``requires_grad_``).
    """

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    after: Callable[[Any], Any] | None = None


class Calls(NamedTuple):
    """Several namespace calls, whose torch results ``combine`` makes into the torch function's one.

    ``torch.std_mean`` is the namespace's ``std`` and ``mean``; ``torch.max(x, dim)``
    its ``max`` and ``argmax``.
    """

    calls: tuple[Call, ...]
    combine: Callable[..., Any]


class Decided(NamedTuple):
    """Torch's function of ``operands`` cast to the dtype the policy gives its ``name`` of them.

    ``compute`` takes that dtype and returns torch's result.  The function mode
    decides it (:meth:`decision`) once per :meth:`signature` and policy.
    """

    name: str
    operands: tuple[Any, ...]
    compute: Callable[[torch.dtype], Any]
    broadcast: bool = False  #: the function broadcasts its tensors first: 0-d ones count as n-d

    def signature(self) -> tuple[tuple[torch.dtype, bool, torch.device], ...] | None:
        """The operands' dtypes, roles (0-d or not) and devices; None where a scalar's value may matter."""
        if not all(isinstance(v, torch.Tensor) for v in self.operands):
            return None
        return tuple((v.dtype, v.ndim == 0, v.device) for v in self.operands)

    def decision(self) -> Call:
        """The namespace's ``name`` on 2 x 2 ones of each tensor's dtype on its device.

        0-d ones stand for a 0-d tensor, whose role may matter to the policy,
        but in ``matmul``, which takes none; a Python scalar takes part as it
        is (its value may matter too, as an int beyond the tensor's dtype).  Of
        three or more operands: on the first two, then on that result and the
        next (``F.linear(x, w, b)`` is one kernel over all three, each
        decision the policy's ``matmul``).
        """
        shaped = self.name == "matmul" or self.broadcast  # of matrices whatever their axes (a 0-d bias)
        stand_ins = [
            v.new_ones((2, 2) if v.ndim or shaped else ()) if isinstance(v, torch.Tensor) else v
            for v in self.operands
        ]
        folded = Call(self.name, tuple(stand_ins[:2]), {})
        for stand_in in stand_ins[2:]:
            folded = Call(self.name, (folded, stand_in), {})
        return folded


class InPlace(NamedTuple):
    """An in-place form (``x.sqrt_()``, ``x.clamp_(0)``): ``call``, its result stored in ``target``.

    The function mode refuses it, before ``target`` changes, where the policy
    does not cast the result's dtype back to ``target``'s (as it refuses ``x.add_(y)``).
    """

    call: Call | Decided
    target: torch.Tensor


#: A torch function's arguments -> the namespace's call (or calls), or None: torch's own call.
Translator = Callable[..., Call | Calls | Decided | InPlace | None]


class ArgumentError(TypeError):
    """A torch argument at a value the namespace's function cannot honour (``pinv(atol=...)``).

    Raised rather than dropped, and rather than running torch's own function,
    whose dtype would not be the policy's.
    """


def unhonoured(function: str, argument: str, value: Any, reference: str) -> ArgumentError:
    """The error for ``function``'s ``argument`` at ``value``, which the namespace's ``reference`` lacks."""
    return ArgumentError(
        f"torch_policy: {function}()'s {argument}={value!r} has no counterpart in promo_ns's {reference}, "
        f"which gives the policy's dtype and values; leave {argument} at its default, or call {function} "
        "outside the torch_policy block (torch's own dtype)"
    )


def tensors(*values: Any) -> bool:
    """Whether every value is a tensor."""
    return all(isinstance(v, torch.Tensor) for v in values)


def is_dim(dim: Any) -> bool:
    """Whether ``dim`` is a torch ``dim`` the standard's ``axis`` spells: an int, a sequence of them, None."""
    if isinstance(dim, (tuple, list)):
        return all(isinstance(d, int) and not isinstance(d, bool) for d in dim)
    return dim is None or (isinstance(dim, int) and not isinstance(dim, bool))


def axis(dim: int | tuple[int, ...] | list[int] | None) -> int | tuple[int, ...] | None:
    """Torch's ``dim`` as the standard's ``axis``: a list as a tuple, an empty one as None (every axis)."""
    if isinstance(dim, (tuple, list)):
        return tuple(dim) if dim else None
    return dim


def one_array(name: str) -> Translator:
    """``torch.<fn>(x)`` of one tensor and nothing else as the namespace's ``name(x)``."""

    def call(x: Any) -> Call | None:
        return Call(name, (x,), {}) if isinstance(x, torch.Tensor) else None

    return call


def decided_as(name: str, x: torch.Tensor, compute: Callable[[torch.dtype], Any], **kwargs: Any) -> Call:
    """The namespace's ``name`` decides the dtype; ``compute``, torch's function in that dtype, the result.

    For torch functions the namespace lacks (``logsumexp``, ``fft.hfftn``):
    the namespace's function of the same dtype rule runs on two zeros of
    ``x``'s dtype on its device (a dtype decision does not depend on an
    array's values), giving the policy's dtype or its refusal; then
    ``compute(dtype)`` gives torch's result.  ``kwargs`` go to ``name``.
    """
    return Call(name, (x.new_zeros(2),), kwargs, lambda decided: compute(decided.dtype))


def decided_over(
    name: str, operands: Sequence[Any], compute: Callable[[torch.dtype], Any], *, broadcast: bool = False
) -> Decided:
    """:func:`decided_as` for a function of two or more operands (``xlogy``, ``einsum``, ``linear``).

    The policy's ``name`` of the operands decides the dtype (see :meth:`Decided.decision`);
    ``broadcast``: the function broadcasts them first, so a 0-d one counts as n-d.
    """
    return Decided(name, tuple(operands), compute, broadcast)


def decided_by(
    op: str, fn: Callable[..., Any], names: tuple[str, ...], following: int = 0, *, floats: bool = False
) -> Translator:
    """Torch's ``fn`` with its tensors ``names`` (its leading parameters) cast to the dtype of ``op`` of them.

    The first two must be given; a 0-d one counts as n-d (torch broadcasts first).

    The last ``following`` of them are cast without deciding (torch's
    ``conv_transpose1d`` casts its bias to the input's dtype).  Any other
    argument that is a tensor makes the call torch's own; with ``floats``, so
    does a tensor that is not floating (a bool or integer target, which torch
    computes as a float, or refuses: ``kl_div``'s "Integral inputs not supported").
    """
    deciding = names[: len(names) - following]

    def call(*args: Any, **kwargs: Any) -> Decided | None:
        positional = min(len(args), len(names))
        given = dict(zip(names, args[:positional], strict=False))
        options = dict(kwargs)
        for name in names[positional:]:
            if name in options:
                given[name] = options.pop(name)
        tensors = [given[name] for name in names if given.get(name) is not None]
        operands = [given[name] for name in deciding if given.get(name) is not None]
        if len(operands) < 2 or not all(isinstance(v, torch.Tensor) for v in tensors):
            return None
        if any(isinstance(v, torch.Tensor) for v in (*args[positional:], *options.values())):
            return None
        if floats and not all(v.is_floating_point() for v in tensors):
            return None

        def compute(dtype: torch.dtype) -> Any:
            cast = {name: None if v is None else v.to(dtype) for name, v in given.items()}
            leading = (cast[name] for name in names[:positional])
            named = {name: cast[name] for name in names[positional:] if name in cast}
            return fn(*leading, *args[positional:], **named, **options)

        return decided_over(op, operands, compute, broadcast=True)

    return call


def computed(
    fn: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor, result: torch.dtype
) -> torch.Tensor:
    """``fn(x)``, torch's function, as a ``result`` tensor.

    Where torch has no kernel for ``x``'s dtype (float16 transforms on the
    CPU), it computes in the wider dtype that holds its values, as the namespace does.
    """
    try:
        out = fn(x)
    except (RuntimeError, NotImplementedError):
        wider = WIDER.get(canonical(x.dtype))
        if wider is None:
            raise
        out = fn(x.to(getattr(torch, wider.name)))
    return out.to(result)


def in_place(translator: Translator) -> Translator:
    """The in-place form (``x.sqrt_()``) of the ``translator`` of ``x.sqrt()``: its call, stored in ``x``."""

    def call(x: Any, *args: Any, **kwargs: Any) -> InPlace | None:
        found = translator(x, *args, **kwargs)
        return InPlace(found, x) if isinstance(found, (Call, Decided)) else None

    return call


def both(*names: str) -> tuple[Callable[..., Any], ...]:
    """``torch.<name>`` and ``torch.Tensor.<name>`` of each name."""
    return tuple(getattr(owner, name) for name in names for owner in (torch, torch.Tensor))


def index_results(func: Callable[..., Any], found: Any) -> tuple[int, ...]:
    """The positions of the results of ``func`` that are indices (``argmax``'s, ``max(x, dim)``'s second)."""
    if getattr(func, "__name__", "") in ("argmax", "argmin"):
        return (0,)
    if not isinstance(found, tuple):  # one tensor (whose .indices is the sparse method)
        return ()
    indices = getattr(found, "indices", None)
    return tuple(i for i, r in enumerate(found) if r is indices) if indices is not None else ()


def tensors_among(values: Any) -> list[torch.Tensor]:
    """The tensors among ``values``, and in the lists and tuples among them (``torch.cat``'s), in order."""
    flat = (t for v in values for t in (v if isinstance(v, (list, tuple)) else (v,)))
    return [t for t in flat if isinstance(t, torch.Tensor)]


def _bytes(t: torch.Tensor) -> tuple[int, int, int]:
    """``t``'s storage and the span of bytes it reads: (storage address, first byte, end)."""
    size = t.element_size()
    first = int(t.storage_offset()) * size
    extent = sum((int(n) - 1) * int(step) for n, step in zip(t.shape, t.stride(), strict=True))
    return t.untyped_storage().data_ptr(), first, first + (extent + 1) * size


def overlaps_an_input(out: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether an ``out=`` tensor shares memory with an input other than as that very input.

    torch refuses such a call ("some elements of the input tensor and the
    written-to tensor refer to a single memory location"); promo_ns would
    resize and write ``out`` over the input.  ``out=x`` for an input ``x`` is
    written after the result is made, as torch writes it.
    """
    outs = [o for o in tensors_among((out,)) if o.device.type != "meta" and o.numel()]
    inputs = [t for t in tensors_among((*args, *(v for k, v in kwargs.items() if k != "out"))) if t.numel()]
    for o in outs:
        storage, first, end = _bytes(o)
        for t in inputs:
            same = t.data_ptr() == o.data_ptr() and t.shape == o.shape and t.stride() == o.stride()
            other, start, stop = _bytes(t)
            if not same and other == storage and start < end and first < stop:
                return True
    return False


def check_outs_writable(func: Callable[..., Any], out: Any) -> None:
    """Raise :class:`InferenceTensorError` for an ``out=`` tensor (or one of a tuple) torch may not write."""
    for o in out if isinstance(out, (tuple, list)) else (out,):
        if isinstance(o, torch.Tensor):
            check_writable(f"torch.{func.__name__}(..., out=...)", o)


def torchs_own_error(
    func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], writes: bool
) -> BaseException | None:
    """The error torch raises for a call in which promo_ns found one, or None where torch computes it.

    ``torch.sum(x, dim=(0, 0))`` and ``x + y`` of shapes that do not fit raise
    torch's RuntimeError, as outside the block.  A call in place (``writes``,
    ``x.add_(y)``) runs on a copy of ``x``; one with ``out=`` is not run: None.
    """
    name = getattr(func, "__name__", "")
    if writes or (name.endswith("_") and not name.endswith("__")):
        if not (args and isinstance(args[0], torch.Tensor)) or name == "__setitem__":
            return None
        args = (args[0].clone(), *args[1:])
    if kwargs.get("out") is not None:
        return None
    try:
        func(*args, **kwargs)
    except Exception as e:
        return e
    return None


def check_out_dtypes(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    outs: tuple[Any, ...],
    results: tuple[Any, ...],
) -> None:
    """Raise torch's own error where it takes no ``out=`` of these dtypes for this call.

    Only where an ``out`` has another dtype than its result: many of torch's
    kernels want their result's dtype exactly (``linalg.inv``, ``matmul``,
    ``abs``, ``where``, ``sort``), others cast into it (``add``, ``sum``).
    Torch's call runs into new tensors of the ``outs``' dtypes (nothing is written),
    and its error counts only where it takes ``out`` tensors of the results'
    dtypes (not where it lacks a kernel the policy's path does not need).
    """
    if all(o.dtype == r.dtype for o, r in zip(outs, results, strict=True)):
        return
    sequence = isinstance(kwargs["out"], (tuple, list))

    def run(spares: tuple[Any, ...]) -> RuntimeError | None:
        try:
            func(*args, **{**kwargs, "out": spares if sequence else spares[0]})
        except RuntimeError as e:
            return e
        return None

    pairs = tuple(zip(outs, results, strict=True))  # spares of the results' shapes: none is resized
    refused = run(tuple(torch.empty(r.shape, dtype=o.dtype, device=o.device) for o, r in pairs))
    if refused is not None:
        of_results = tuple(torch.empty(r.shape, dtype=r.dtype, device=o.device) for o, r in pairs)
        if run(of_results) is None:
            raise refused
