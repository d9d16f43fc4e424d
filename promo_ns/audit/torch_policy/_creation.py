"""Torch's creation functions without ``dtype=`` as the namespace's: the policy's default dtypes.

``torch.tensor(1.5)`` is float64 under ``numpy``, ``torch.arange(3)`` int32
under ``tf-safe``; ``torch.rand``/``randn``, ``normal(mean, std, size)`` and
``scalar_tensor`` take the policy's default float, ``randint`` and
``randperm`` its default integer, ``logspace`` the dtype of its ``linspace``.  With
``dtype=`` (or ``out=``), or from a tensor or a NumPy array (whose dtype
they keep), they are torch's own.  torch's factory
keywords are honoured: ``device=`` goes to the namespace's function; a
memory format (``channels_last``) or a sparse layout, then
``pin_memory=True`` and ``requires_grad=True``, apply to its result.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from promo_ns.audit.torch_policy._call import SCALARS, Call, Translator

__all__ = ["CREATION"]

#: torch's factory keywords the namespace's creation functions take, or honour, or refuse.
_FACTORY = frozenset(("dtype", "device", "layout", "requires_grad", "pin_memory", "memory_format"))


def _factory(name: str, args: tuple[Any, ...], options: dict[str, Any], **kwargs: Any) -> Call | None:
    """The namespace's creation function ``name`` of ``args``, with torch's factory keywords ``options``."""
    if not _FACTORY.issuperset(options) or options.get("dtype") is not None:
        return None  # out=, names=, or the caller's dtype: torch's own
    layout = options.get("layout")
    layout = None if layout is torch.strided else layout
    memory_format = options.get("memory_format")
    memory_format = None if memory_format is torch.contiguous_format else memory_format
    requires_grad, pinned = bool(options.get("requires_grad")), bool(options.get("pin_memory"))
    honoured = layout, memory_format, pinned, requires_grad
    after = functools.partial(_finished, *honoured) if any(honoured) else None
    return Call(name, args, {**kwargs, "device": options.get("device")}, after)


def _finished(
    layout: Any, memory_format: Any, pinned: bool, requires_grad: bool, out: torch.Tensor
) -> torch.Tensor:
    """``out`` in torch's ``layout`` and ``memory_format``, pinned, requiring its gradient, as asked.

    Each is a conversion torch makes of the same values (a format or layout it
    does not take for ``out``'s shape is its own error).
    """
    if memory_format is not None:
        out = out.contiguous(memory_format=memory_format)
    if layout is not None:
        out = out.to_sparse(layout=layout)
    if pinned:
        out = out.pin_memory()
    return out.requires_grad_(requires_grad)


def _is_data(data: Any) -> bool:
    """Whether the policy decides the dtype of ``data``: no tensor, array, buffer, nor data holding one.

    A tensor or a NumPy array keeps its dtype (torch's own copy); so does a
    list of NumPy arrays, which torch stacks and the namespace does not take,
    and a buffer (``memoryview``, ``bytes``), which torch reads its own way.
    A list of tensors is the namespace's nested data, whose dtype the policy decides.
    """
    return not isinstance(data, torch.Tensor) and not _holds_ndarray(data) and not _is_buffer(data)


def _is_buffer(data: Any) -> bool:
    if isinstance(data, (list, tuple, *SCALARS)):
        return False
    try:
        memoryview(data)
    except TypeError:
        return False
    return True


def _holds_ndarray(data: Any) -> bool:
    if isinstance(data, (list, tuple)):
        return any(map(_holds_ndarray, data))
    return isinstance(data, np.ndarray)


def _tensor(data: Any, **options: Any) -> Call | None:
    """``torch.tensor(data)``: a copy, as the namespace's ``asarray(data, copy=True)``."""
    return _factory("asarray", (data,), options, copy=True) if _is_data(data) else None


def _as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Call | None:
    ours = _is_data(data)
    return _factory("asarray", (data,), {"dtype": dtype, "device": device}) if ours else None


def _asarray(obj: Any, *, copy: bool | None = None, **options: Any) -> Call | None:
    return _factory("asarray", (obj,), options, copy=copy) if _is_data(obj) else None


def _is_number(value: Any) -> bool:
    return isinstance(value, SCALARS) and not isinstance(value, bool)


def _arange(start: Any = None, end: Any = None, step: Any = 1, **options: Any) -> Call | None:
    """``torch.arange(end)``, ``arange(start, end, step=1)``; bounds that are tensors: torch's own."""
    if end is None:
        start, end = 0, start
    elif start is None:  # arange(end=5)
        start = 0
    if not all(_is_number(v) and not isinstance(v, complex) for v in (start, end, step)):
        return None
    return _factory("arange", (start, end, step), options)


def _linspace(start: Any, end: Any, steps: Any, **options: Any) -> Call | None:
    if not (_is_number(start) and _is_number(end) and isinstance(steps, int)):
        return None
    return _factory("linspace", (start, end, steps), options)


def _logspace(start: Any, end: Any, steps: Any, base: Any = 10.0, **options: Any) -> Call | None:
    """``torch.logspace``: torch's, in the dtype the namespace's ``linspace(start, end, ...)`` has."""
    if not (_is_number(start) and _is_number(end) and isinstance(steps, int) and _is_number(base)):
        return None
    found = _factory("linspace", (start, end, 0), options)
    return _made(found, lambda like: torch.logspace(start, end, steps, base, **_like(like)))


def _made(found: Call | None, make: Callable[[torch.Tensor], torch.Tensor]) -> Call | None:
    """``found`` (an empty array of the policy's dtype, on the device) made into ``make(empty)``, finished."""
    if found is None:
        return None
    finished = found.after
    return found._replace(after=lambda like: make(like) if finished is None else finished(make(like)))


def _like(like: torch.Tensor) -> dict[str, Any]:
    """Torch's factory keywords of a tensor of ``like``'s dtype on its device."""
    return {"dtype": like.dtype, "device": like.device}


def _shape(size: tuple[Any, ...]) -> tuple[int, ...] | None:
    """Torch's ``*size`` (``zeros(2, 3)``, ``zeros((2, 3))``) as a shape; None where it is not ints."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):  # torch.Size is a tuple
        size = tuple(size[0])
    ints = all(isinstance(n, int) and not isinstance(n, bool) for n in size)
    return tuple(size) if ints else None


def _filled(name: str) -> Translator:
    """``torch.<name>(*size)`` (``zeros``, ``ones``, ``empty``) as the namespace's ``name(shape)``."""

    def call(*size: Any, **options: Any) -> Call | None:
        if not size and "size" in options:
            size = (options.pop("size"),)
        shape = _shape(size)
        return None if shape is None else _factory(name, (shape,), options)

    return call


def _random(name: str) -> Translator:
    """``torch.rand``/``randn(*size, generator=None)``: torch's, in the policy's default float dtype."""
    fill = getattr(torch, name)

    def call(*size: Any, generator: Any = None, **options: Any) -> Call | None:
        if not size and "size" in options:
            size = (options.pop("size"),)
        shape = _shape(size)
        if shape is None:
            return None
        found = _factory("empty", ((0,),), options)
        return _made(found, lambda like: fill(shape, generator=generator, **_like(like)))

    return call


def _integers(*args: Any, generator: Any = None, **options: Any) -> Call | None:
    """``torch.randint([low=0,] high, size)``: torch's, in the policy's default integer dtype."""
    if "size" in options:
        args = (*args, options.pop("size"))
    if len(args) not in (2, 3):
        return None
    low, high, size = args if len(args) == 3 else (0, *args)
    shape = _shape((size,))
    if shape is None or not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
        return None
    found = _factory("full", ((0,), 0), options)
    return _made(found, lambda like: torch.randint(low, high, shape, generator=generator, **_like(like)))


def _permutation(n: Any, *, generator: Any = None, **options: Any) -> Call | None:
    """``torch.randperm(n)``: torch's, in the policy's default integer dtype."""
    if not isinstance(n, int) or isinstance(n, bool):
        return None
    found = _factory("full", ((0,), 0), options)
    return _made(found, lambda like: torch.randperm(n, generator=generator, **_like(like)))


def _normal(
    mean: Any, std: Any = 1.0, size: Any = None, *, generator: Any = None, **options: Any
) -> Call | None:
    """``torch.normal(mean, std, size)`` of Python floats: torch's, in the policy's default float dtype.

    With tensors for ``mean`` or ``std`` it has their dtype: torch's own.
    """
    shape = None if size is None else _shape((size,))
    if shape is None or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (mean, std)):
        return None
    found = _factory("empty", ((0,),), options)
    return _made(
        found, lambda like: torch.normal(float(mean), float(std), shape, generator=generator, **_like(like))
    )


def _scalar_tensor(s: Any, **options: Any) -> Call | None:
    """``torch.scalar_tensor(s)``, of torch's default float dtype: the namespace's ``full((), float(s))``."""
    if not isinstance(s, (bool, int, float)) or (isinstance(s, int) and abs(s) > 2**1023):
        return None  # a complex or too large scalar: torch's own error
    return _factory("full", ((), float(s)), options)


def _full(size: Any, fill_value: Any, **options: Any) -> Call | None:
    shape = _shape((size,))
    if shape is None or not isinstance(fill_value, SCALARS):
        return None
    return _factory("full", (shape, fill_value), options)


def _eye(n: Any, m: Any = None, **options: Any) -> Call | None:
    return _factory("eye", (n, m), options) if isinstance(n, int) else None


def _frequencies(name: str) -> Translator:
    """``torch.fft.<name>(n, d=1.0)`` as the namespace's ``fft.<name>(n, d=d)``."""

    def call(n: Any, d: Any = 1.0, **options: Any) -> Call | None:
        if isinstance(d, torch.Tensor):  # torch takes a 0-d tensor as the number it holds
            if d.ndim:
                return None
            d = d.item()
        return _factory(f"fft.{name}", (n,), options, d=d) if isinstance(n, int) else None

    return call


#: Torch's creation functions whose dtype without ``dtype=`` is a default -> their translators.
CREATION: dict[Callable[..., Any], Translator] = {
    torch.tensor: _tensor,
    torch.as_tensor: _as_tensor,
    torch.asarray: _asarray,
    torch.arange: _arange,
    torch.linspace: _linspace,
    torch.logspace: _logspace,
    **{getattr(torch, name): _random(name) for name in ("rand", "randn")},
    torch.randint: _integers,
    torch.randperm: _permutation,
    torch.normal: _normal,
    torch.scalar_tensor: _scalar_tensor,
    **{getattr(torch, name): _filled(name) for name in ("zeros", "ones", "empty")},
    torch.full: _full,
    torch.eye: _eye,
    **{getattr(torch.fft, name): _frequencies(name) for name in ("fftfreq", "rfftfreq")},
}
