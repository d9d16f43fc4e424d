"""Helpers the chapters share: binding functions to a namespace, one-array functions the policy decides."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from promo_ns._plan import Space, finish, one_array, wrap_any
from promo_ns.backends import Backend

__all__ = ["SIGNATURES", "bind", "decided", "owner_function"]

#: The standard's signatures of functions built by factories (which take ``**kwargs``).
SIGNATURES: dict[str, Callable[..., None]] = {}


def bind(fn: Callable[..., Any], ns: Space) -> Callable[..., Any]:
    """``fn`` with the namespace as its first argument, named, documented and signed like the standard's."""
    bound = functools.update_wrapper(functools.partial(fn, ns), fn)
    template = SIGNATURES.get(fn.__name__)
    if template is not None:
        sig = inspect.signature(template)
    else:
        sig = inspect.signature(fn)
        sig = sig.replace(parameters=list(sig.parameters.values())[1:])
    bound.__signature__ = sig  # type: ignore[attr-defined]
    return bound


def owner_function(ns: Space, name: str) -> Callable[..., Any]:
    """``array_api_compat.<backend>``'s function ``name`` (``"log"``, ``"linalg.inv"``)."""
    return _compat_function(ns._backend, name)


@functools.cache
def _compat_function(backend: Backend, name: str) -> Callable[..., Any]:
    owner, _, short = name.rpartition(".")
    compat = backend.compat
    return getattr(getattr(compat, owner) if owner else compat, short)  # type: ignore[no-any-return]


def decided(name: str, *, computes_only: bool = False) -> Callable[..., Any]:
    """The one-array function ``name`` whose result dtype the active policy decides.

    The operand is cast to the dtype the function computes in, the backend's
    own function runs, and the result comes back in the policy's dtype.  With
    ``computes_only`` (``linalg``, ``fft``) the policy decides the dtype the
    function computes in, and its results keep the dtypes that follow from
    it (``matrix_rank`` an integer, ``irfft`` a real float).
    """
    short = name.rpartition(".")[2]

    def one(ns: Space, x: Any, /, *args: Any, **kwargs: Any) -> Any:
        result, native_x = one_array(ns, name, x)
        out = owner_function(ns, name)(native_x, *args, **kwargs)
        return wrap_any(ns, out) if computes_only or out.__class__ is tuple else finish(ns, out, result)

    one.__name__ = one.__qualname__ = short
    one.__doc__ = f"``{name}`` of the Array API standard, with the result dtype of the active policy."
    return one
