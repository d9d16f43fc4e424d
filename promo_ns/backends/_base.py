"""What every backend adapter is: the Backend Protocol, the Plan it runs, shared dtype maps and errors."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from promo_ns._dtypes import DType, bool_, canonical, native
from promo_ns.policies import Policy, Role
from promo_ns.policies._family import NegativePowers, ZeroDivisor, ZeroRemainder

if TYPE_CHECKING:
    from promo_ns._engine.scalars import IntLimits

__all__ = ["Backend", "DTypeMaps", "KernelErrors", "Plan", "Values", "cast_before", "inplace_result", "named"]


class Values(NamedTuple):
    """The policy's answer where frameworks' kernels compute otherwise: every backend gives it.

    Read from the op family (see :class:`promo_ns.policies.Family`); the
    defaults are NumPy's.
    """

    zero_divisor: ZeroDivisor = "zero"  #: integer ``//`` and ``%`` by 0: 0, or ZeroDivisionError
    negative_powers: NegativePowers = "raise"  #: integer ``**`` by a negative integer array
    zero_remainder: ZeroRemainder = "divisor"  #: the sign of a floating ``%`` that gives 0


#: NumPy's answers.
NUMPY_VALUES = Values()


class Plan(NamedTuple):
    """How to run one cell (op, operand key, operand key): the engine's answer, ready to use."""

    result: int  #: operand code of the result: its dtype, and whether it is 0-d
    compute: DType  #: the dtype the kernel computes in, a Python scalar converted to it
    direct: bool  #: the backend's own promotion already computes in ``compute``
    to_bool: bool  #: the op returns bool (a comparison)
    fix_scalar: bool  #: a Python scalar needs a value check or conversion first
    inplace_ok: bool  #: the policy allows ``x op= y``
    #: The function computing the cell from the operands as they are: a ``direct`` cell's
    #: native function, or what the policy composes (``s / x`` as ``reciprocal(x) * s``).
    kernel: Callable[[Any, Any], Any] | None
    #: The float dtype a result computed in the wider ``compute`` is rounded to, once (torch's
    #: float16/bfloat16 "opmath"); None where the result has ``compute``'s dtype (or is bool).
    rounded: DType | None = None
    #: What a Python int operand may be, for the plan layer's checks; None without one.
    ints: IntLimits | None = None
    #: The policy's answer for the values kernels disagree on (integer division by 0, ...).
    values: Values = NUMPY_VALUES
    #: ``kernel`` where both operands are n-d arrays (no device check needed), else None.
    arrays_kernel: Callable[[Any, Any], Any] | None = None
    #: ``x op= y`` for n-d arrays, ``x`` of the result dtype, as the backend's own in-place
    #: operator stores it (see :meth:`Backend.inplace_kernel`; setitem's: ``x[key] = value``,
    #: a function of the three); else None.
    inplace_kernel: Callable[..., Any] | None = None
    #: A logical op's Python float or complex: the magnitude of each part at or below which
    #: it reads as false (0.0: its own value, see ``Family.scalar_truth``); None elsewhere.
    truth: float | None = None


class Backend(Protocol):
    """What the Array wrapper and the namespace need from an array library."""

    def __hash__(self) -> int:
        """Adapters are singletons, hashed by identity: compiled plans are cached per adapter."""
        ...

    @property
    def name(self) -> str:
        """``"numpy"``, ``"torch"`` or ``"cupy"``."""
        ...

    @property
    def module(self) -> ModuleType:
        """The array library itself."""
        ...

    @property
    def compat(self) -> ModuleType:
        """``array_api_compat.<name>``: the standard's functions on native arrays."""
        ...

    @property
    def native_policy(self) -> Policy:
        """The library's own promotion: where it gives the policy's dtype, kernels run as they are."""
        ...

    @property
    def not_native(self) -> frozenset[tuple[str | None, DType, DType]]:
        """Where the library's own kernels differ from ``native_policy``: operands are cast first.

        Entries are ``(op, or None for every op; operand dtype; compute dtype)``.
        """
        ...

    @property
    def array_type(self) -> type:
        """The library's native array type."""
        ...

    @property
    def lazy(self) -> bool:
        """Whether the library's arrays are lazy graphs (Dask), which compute only when asked."""
        ...

    @property
    def refuses_conversions(self) -> bool:
        """Whether ``bool(x)``, ``int(x)``, ``float(x)``, ``complex(x)`` and ``x.__index__()`` raise.

        True only for a lazy library whose conversions were turned off
        (:func:`promo_ns.backends.dask.compute_conversions`): the standard lets
        lazy arrays raise a ValueError there instead of computing the graph.
        """
        ...

    def computed_sizes(self, x: Any) -> Any:
        """Native array ``x`` with the sizes a lazy graph knows only once computed made known.

        Only a lazy library's arrays have such sizes (Dask's nan after a boolean
        mask or ``unique``); this runs their graph.  Called where ``x.shape`` is
        read and conversions compute (:attr:`refuses_conversions` False).
        """
        ...

    def dtype(self, x: Any) -> DType:
        """The canonical dtype of native array ``x``."""
        ...

    def native_dtype(self, dtype: DType) -> Any:
        """The library's dtype for ``dtype``; a TypeError naming both if it has none."""
        ...

    def kernel(
        self, op: str, x: DType | Role, y: DType | Role, compute: DType, result: DType, *, values: Values
    ) -> Callable[[Any, Any], Any] | None:
        """The native function of ``op`` if it takes these operands as they are, else None.

        ``x`` and ``y`` are an array's dtype or a Python scalar's role.  Only
        asked where the library's own promotion already computes in ``compute``
        and gives ``result``; None sends the cell through :meth:`binary`.  The
        function gives the policy's ``values`` where the library's kernel
        computes otherwise.
        """
        ...

    def binary(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` computed in ``plan.compute``, rounded to ``plan.rounded`` where it is set.

        ``x`` and ``y`` are native arrays or Python scalars already converted
        to the compute dtype's kind; a Python float takes part as a value of
        the compute dtype (a float16 computation rounds it to float16).  The
        values kernels disagree on are ``plan.values``.
        """
        ...

    def rounded_kernel(
        self, op: str, compute: DType, rounded: DType, values: Values
    ) -> Callable[[Any, Any], Any] | None:
        """A native function of ``x op y`` computed in ``compute`` and rounded once to ``rounded``.

        What :meth:`binary` computes for a plan with ``rounded`` (a float16
        array and a Python float in float32), for a cell of an array and a
        Python float the policy takes as it is; None where :meth:`binary` must.
        """
        ...

    def inplace_kernel(self, op: str, compute: DType, values: Values) -> Callable[..., Any] | None:
        """A native function storing ``x op y`` into ``x`` as :meth:`inplace` would, for n-d arrays.

        NumPy's ``operator.iadd``, torch's ``x.add_(y)``.  Only asked for
        a ``direct`` cell of two arrays whose first operand's dtype is
        ``compute`` and the result's; for ``setitem`` (a function of ``x``,
        ``key`` and ``value``), for a cell whose value needs no check.  None where it could fail after writing
        part of ``x``, computes other values than the policy's, or where arrays
        are immutable.  Where it raises, ``x`` is as it was.  A ``setitem``
        store returns ``NotImplemented``, writing nothing, for a key or ``x``
        it leaves to :meth:`setitem`'s checks.
        """
        ...

    def inplace(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``x op= y`` computed in ``plan.compute`` and stored into ``x`` (its dtype unchanged).

        Returns None, or, for a library whose arrays are immutable (JAX), the
        updated array: the wrapper then holds that one instead of ``x``.
        """
        ...

    def astype(self, x: Any, dtype: DType) -> Any:
        """``x`` as ``dtype``, without a copy when it already is."""
        ...

    def accumulate(self, name: str, x: Any, dtype: DType, **kwargs: Any) -> Any:
        """The reduction or cumulative function ``name`` of ``x``, accumulating in ``dtype``."""
        ...

    def accumulator(self, name: str, x: DType, dtype: DType) -> Callable[..., Any]:
        """:meth:`accumulate` of ``name`` for arrays of ``x`` into ``dtype``: a function of the array."""
        ...

    def caster(self, copy: bool) -> Callable[[Any, Any], Any]:
        """``compat.astype(x, target, copy=copy)`` as a function of ``(x, target)``: a compiled ``astype``."""
        ...

    def guarded(self, kernel: Callable[..., Any], compute: DType) -> Callable[..., Any]:
        """``kernel`` on operands of ``compute``, as a compiled plan keeps it for every later call.

        As it is, but where the library's state decides whether it computes in
        ``compute`` (JAX's 64-bit dtypes, only with ``jax_enable_x64`` on):
        there it checks that state first on each call and raises as a cast to
        ``compute`` would.
        """
        ...

    def scalar(self, value: object, dtype: DType, like: Any) -> Any:
        """A 0-d native array of ``value`` as ``dtype`` on ``like``'s device."""
        ...

    def same_device(self, x: Any, y: Any) -> bool:
        """Whether two native arrays live on the same device."""
        ...

    def to_array(self, x: Any) -> Any:
        """A native result as a native array (NumPy returns scalars from 0-d ops)."""
        ...

    def asarray(self, obj: Any, **kwargs: Any) -> Any:
        """A native array from ``obj`` (``compat.asarray``), copying only where the library must."""
        ...

    def getitem(self, x: Any, key: Any) -> Any:
        """``x[key]``, with the standard's indexing (negative slice steps too)."""
        ...

    def kernel_error(self, op: str, error: Exception, arrays: Sequence[Any]) -> Exception | None:
        """promo_ns's error for the library's ``error`` in ``op``'s kernel on ``arrays``; None: none.

        Arrays whose shapes do not fit get NumPy's ValueError, naming the
        shapes; a dtype the kernel has no loop for, a TypeError naming it.
        """
        ...

    def setitem(self, x: Any, key: Any, value: Any) -> Any:
        """``x[key] = value``; ``x`` is left untouched when it raises.

        Returns None, or the updated array where the library's arrays are
        immutable (JAX's ``x.at[key].set(value)``), which the wrapper then holds.
        """
        ...


class DTypeMaps:
    """Cached maps between a library's dtypes and the canonical ones, shared by every adapter."""

    module: ModuleType
    compat: Any
    #: Arrays are eager unless an adapter says otherwise (see :attr:`Backend.lazy`).
    lazy: bool = False
    #: Python scalars of arrays compute (see :attr:`Backend.refuses_conversions`).
    refuses_conversions: bool = False

    def computed_sizes(self, x: Any) -> Any:
        """``x``: an eager library's arrays know every size (see :meth:`Backend.computed_sizes`)."""
        return x

    def __init__(self) -> None:
        self._native: dict[DType, Any] = {}
        self._canonical: dict[Any, DType] = {}

    def dtype(self, x: Any) -> DType:
        """The canonical dtype of native array ``x``."""
        found = self._canonical.get(x.dtype)
        if found is None:
            found = self._canonical[x.dtype] = self._canonical_of(x.dtype)
        return found

    def _canonical_of(self, dtype: Any) -> DType:
        """The canonical dtype of library dtype ``dtype``, met for the first time (then cached)."""
        return canonical(dtype)

    def native_dtype(self, dtype: DType) -> Any:
        """The library's dtype for ``dtype``; a TypeError naming both if it has none."""
        found = self._native.get(dtype)
        if found is None:
            found = self._native[dtype] = native(dtype, self.module)
        return found

    def rounded_kernel(
        self, op: str, compute: DType, rounded: DType, values: Values
    ) -> Callable[[Any, Any], Any] | None:
        """None: :meth:`binary` computes and rounds."""
        return None

    def caster(self, copy: bool) -> Callable[[Any, Any], Any]:
        """``compat.astype(x, target, copy=copy)`` as a function of ``(x, target)`` (``Backend.caster``)."""
        return partial(_compat_cast, self.compat.astype, copy=copy)

    def guarded(self, kernel: Callable[..., Any], compute: DType) -> Callable[..., Any]:
        """``kernel`` as it is: the library computes in every dtype it has (see :meth:`Backend.guarded`)."""
        return kernel


def _compat_cast(cast: Callable[..., Any], x: Any, target: Any, *, copy: bool) -> Any:
    """``cast(x, target, copy=copy)``: :meth:`DTypeMaps.caster`'s function."""
    return cast(x, target, copy=copy)


#: Python's own words where a library's code indexes a shape past its end (an axis a 0-d array lacks).
_PYTHONS_INDEX_ERRORS = frozenset(
    ("tuple index out of range", "list index out of range", "list assignment index out of range")
)


#: The libraries' words for a reduction without an identity over an empty axis (NumPy's and JAX's
#: ValueError, torch's IndexError or RuntimeError).
_EMPTY_WORDS = (
    "zero-size array to reduction",
    "zero-size dimension for reduction",
    "of an empty sequence",
    "to have non-zero size",
    "on tensor with no elements",
    "input.numel() == 0",
)


def empty_reduction(op: str, error: Exception, shapes: str) -> ValueError | None:
    """promo_ns's ValueError where ``error`` is a library's for ``op`` reducing an empty axis, else None.

    ``op`` has no identity (``max``, ``argmin``): NumPy and JAX raise a
    ValueError, torch an IndexError or a RuntimeError.  ``shapes``: the input's.
    """
    if type(error) not in (RuntimeError, IndexError, ValueError) or not any(
        w in str(error) for w in _EMPTY_WORDS
    ):
        return None
    return ValueError(
        f"{op}() of an array of shape {shapes} reduces an axis with no element, and has no identity to "
        "give there. Fix: reduce non-empty axes only (check the shape first)"
    )


class KernelErrors:
    """A library's kernel errors read from their words: every adapter's :meth:`Backend.kernel_error`."""

    name: str
    #: Words of the library's errors for arrays whose shapes do not fit (torch's RuntimeError,
    #: JAX's TypeError, NumPy's ValueError: "operands could not be broadcast together with shapes").
    shape_words: tuple[str, ...] = ("shape", "size", "dim", "broadcast", "with a sequence", "at least 1D")
    #: Words of the library's TypeError/ValueError for dtypes its kernel has no loop for (a
    #: NotImplementedError says so in any library).
    no_loop_words: tuple[str, ...] = ()

    dtype: Callable[[Any], DType]  #: the adapter's (:class:`DTypeMaps`')

    def kernel_error(self, op: str, error: Exception, arrays: Sequence[Any]) -> Exception | None:
        """promo_ns's error for the library's ``error`` in ``op``'s kernel (:meth:`Backend.kernel_error`)."""
        text = str(error)
        shapes = ", ".join(str(tuple(a.shape)) for a in arrays)
        empty = empty_reduction(op, error, shapes)
        if empty is not None:
            return empty
        if (
            type(error) in (RuntimeError, TypeError, ValueError)
            and any(word in text for word in self.shape_words)
            and not text.startswith(f"{op}()")  # promo_ns's own, raised inside the kernel
        ):
            return ValueError(f"{op}() got arrays of shapes that do not fit together ({shapes}): {error}")
        if type(error) is IndexError and text in _PYTHONS_INDEX_ERRORS:  # the library's code assumed an axis
            return ValueError(f"{op}() cannot take arrays of these shapes ({shapes}), e.g. a 0-d one here")
        if isinstance(error, NotImplementedError) or (
            type(error) in (TypeError, ValueError) and any(word in text for word in self.no_loop_words)
        ):
            dtypes = ", ".join(str(self.dtype(a)) for a in arrays) or "these operands"
            return TypeError(
                f"{self.name} has no {op!r} kernel for {dtypes} ({error}); the policy's dtype cannot "
                "be computed on this backend. Cast the operands explicitly first, e.g. to a floating dtype."
            )
        return None


def cast_before(
    astype: Callable[[Any, DType], Any], dtype: DType, fn: Callable[..., Any], x: Any, **kwargs: Any
) -> Any:
    """``fn`` of native ``x`` cast to ``dtype`` first (``astype``: the backend's)."""
    return fn(astype(x, dtype), **kwargs)


def named(module: ModuleType, name: str) -> Callable[..., Any]:
    """The function of ``module`` called ``name``, or of its submodule for a dotted one (``linalg.trace``)."""
    owner, _, fname = name.rpartition(".")
    found: Callable[..., Any] = getattr(getattr(module, owner) if owner else module, fname)
    return found


def inplace_result(backend: Backend, op: str, x: Any, y: Any, plan: Plan) -> Any:
    """``backend.binary(op, x, y, plan)``, the value of ``x op= y`` before it is stored into ``x``.

    Raises
    ------
    NotImplementedError
        The backend's kernel computed in another dtype than the policy's (torch's
        bool ``/`` in float32): stored into ``x``, it would hide the refusal
        ``x op y`` gives; the plan layer names the missing kernel, as for ``x op y``.
    """
    out = backend.binary(op, x, y, plan)
    want = bool_ if plan.to_bool else plan.rounded or plan.compute
    if backend.dtype(out) is not want:
        raise NotImplementedError(f"its kernel computes in {backend.dtype(out)}, not {want}")
    return out


class Patched(ModuleType):
    """A module (``array_api_compat.<library>`` or its ``linalg``) with some of its functions replaced."""

    def __init__(self, base: ModuleType) -> None:
        super().__init__(base.__name__, base.__doc__)
        self._base = base

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)
