"""Cases drawn from the op registry, run on any backend, and their outcomes compared.

A :class:`Case` is backend-free data: an op, the spelling it is called by
(function, operator, reflected operator, in-place operator, setitem), its
operands as NumPy values with their canonical dtypes or as Python scalars,
and a policy.  :func:`run` builds it on a namespace and returns an
:class:`Outcome` (the result's dtype and values, or the exception raised),
plus, for a mutating op that raised, whether its operand was left as it was.
The strategies draw every part from the registries (:data:`promo_ns._ops.NATIVE`,
:data:`~promo_ns._ops.FUNCTION_FAMILY`, :data:`promo_ns._dtypes.DTYPES`,
:func:`promo_ns.policies`), not from a list of chosen cases.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import promo_ns
from promo_ns._dtypes import DTYPES, DType, native
from promo_ns._ops import COMPARISONS, FUNCTION_FAMILY, NATIVE, OPERATORS
from tests.backends import has_values, namespace, to_numpy

#: The Python operator of each binary op that has one.
DUNDER = OPERATORS
#: Every binary op that has an in-place operator, and that operator.
INPLACE = {op: f"__i{name}__" for op, name in DUNDER.items() if op not in COMPARISONS}

#: promo_ns's own exception classes: what a user may see.
ALLOWED = (TypeError, ValueError, IndexError, OverflowError, ZeroDivisionError, BufferError)

_SCALAR_INTS = (0, 1, -1, 2, 3, 7, 127, 128, 255, 256, -128, -129, 2**15, 2**31, 2**32, 2**53 + 1)
_BIG_INTS = (2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1)
_SCALAR_FLOATS = (
    0.0,
    -0.0,
    0.5,
    1.5,
    -2.5,
    0.1,
    70000.0,
    3e38,
    1e300,
    float("inf"),
    float("-inf"),
    float("nan"),
)


@dataclass(frozen=True)
class Operand:
    """An array operand (``values`` in NumPy, ``dtype`` canonical; 0-d where ``values.ndim == 0``)."""

    dtype: DType
    values: np.ndarray[Any, Any] = field(compare=False)

    def __repr__(self) -> str:
        return f"{self.dtype}{list(self.values.shape)}({self.values.tolist()!r})"


@dataclass(frozen=True)
class Case:
    """One op call: ``form`` is function, operator, reflected, inplace, setitem or a function kind."""

    op: str
    form: str
    operands: tuple[Any, ...]  #: Operand or Python scalar; a setitem's are (array, key, value)
    policy: str
    kwargs: tuple[tuple[str, Any], ...] = ()

    @property
    def mutates(self) -> bool:
        return self.form in ("inplace", "setitem")


@dataclass
class Outcome:
    """What a case gave: a result (``dtype``, ``values``; values None where arrays hold none) or an error."""

    dtype: str | None = None
    values: Any = None
    error: BaseException | None = None
    #: For a mutating op that raised: whether its operand kept its values and shape.
    intact: bool = True
    #: Whether the operands could be made on the backend at all (``error`` is from making them if not).
    built: bool = True

    def __repr__(self) -> str:
        if self.error is not None:
            return f"raised {type(self.error).__name__}: {str(self.error)[:300]}"
        return f"{self.dtype} {self.values!r}"


# --- strategies -------------------------------------------------------------------------------


def _values(dtype: DType, shape: tuple[int, ...]) -> st.SearchStrategy[np.ndarray[Any, Any]]:
    if dtype.name == "bfloat16":  # hypothesis has no bfloat16: drawn as float32 values bfloat16 holds
        return hnp.arrays(np.float32, shape, elements=st.sampled_from([0.0, -0.0, 1.0, -2.5, 3.0, 256.0]))
    np_dtype = native(dtype, np)
    elements = None
    if dtype.kind in "fc":
        elements = hnp.from_dtype(np.dtype(np_dtype), allow_subnormal=False)
    return hnp.arrays(np_dtype, shape, elements=elements)


def operands(shape: tuple[int, ...]) -> st.SearchStrategy[Operand]:
    """An array operand of any dtype and ``shape``."""
    return st.sampled_from(DTYPES).flatmap(lambda d: _values(d, shape).map(lambda v: Operand(d, v)))


def python_scalars() -> st.SearchStrategy[Any]:
    """Python scalars, at and beyond the dtypes' limits too."""
    return st.one_of(
        st.booleans(),
        st.sampled_from(_SCALAR_INTS + _BIG_INTS),
        st.integers(-300, 300),
        st.sampled_from(_SCALAR_FLOATS),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
        st.sampled_from((1 + 2j, -0.5j, complex("nan+1j"))),
    )


@st.composite
def binary_cases(draw: st.DrawFn) -> Case:
    """A binary elementwise op in one of its spellings, operands of two shapes that broadcast or not."""
    op = draw(st.sampled_from(sorted(NATIVE)))
    forms = ["function"]
    if op in DUNDER:
        forms += ["operator"] if op in COMPARISONS else ["operator", "reflected", "inplace"]
    form = draw(st.sampled_from(forms))
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=2, max_side=3))
    a, b = shapes.input_shapes
    if draw(st.integers(0, 9)) == 0:  # now and then shapes that do not broadcast
        b = (*b[:-1], 4) if b else (4,)
    x: Any = draw(operands(a))
    y: Any = draw(st.one_of(operands(b), python_scalars()))
    if form == "reflected":
        x, y = draw(python_scalars()), draw(operands(b))
    elif form == "function" and draw(st.booleans()):
        x, y = y, x  # a Python scalar first
    return Case(op, form, (x, y), draw(st.sampled_from(promo_ns.policies())))


@st.composite
def inplace_cases(draw: st.DrawFn) -> Case:
    """``x op= y`` of every in-place operator, ``y`` an array that broadcasts to ``x``'s shape or a scalar."""
    op = draw(st.sampled_from(sorted(INPLACE)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3))
    x = draw(operands(shape))
    fitting = draw(hnp.broadcastable_shapes(shape, max_dims=len(shape)))
    y = draw(st.one_of(operands(fitting), python_scalars()))
    return Case(op, "inplace", (x, y), draw(st.sampled_from(promo_ns.policies())))


def _keys(shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
    n = shape[0]
    ints = st.integers(-n - 2, n + 2)
    index_lists = st.lists(ints, min_size=0, max_size=3)
    return st.one_of(
        ints,
        st.just(...),
        st.builds(slice, st.none() | ints, st.none() | ints, st.sampled_from([None, 1, 2, -1, -2])),
        index_lists.map(lambda k: ("list", k)),
        index_lists.map(lambda k: ("numpy", np.asarray(k, dtype=np.int64))),
        ints.map(lambda k: ("numpy", np.int64(k))),
        ints.map(lambda k: ("array", np.asarray(k, dtype=np.int64))),
        index_lists.map(lambda k: ("array", np.asarray(k, dtype=np.int64))),
        st.lists(st.booleans(), min_size=n, max_size=n + 1).map(lambda m: ("array", np.asarray(m))),
    )


@st.composite
def setitem_cases(draw: st.DrawFn) -> Case:
    """``x[key] = value``: every key kind (ints, slices, lists, NumPy and promo_ns index arrays, masks)."""
    shape = draw(st.sampled_from([(4,), (3, 2)]))
    x = draw(operands(shape))
    key = draw(_keys(shape))
    value = draw(st.one_of(python_scalars(), operands(()), operands(shape[1:]), operands((2,))))
    return Case("setitem", "setitem", (x, key, value), draw(st.sampled_from(promo_ns.policies())))


@st.composite
def one_array_cases(draw: st.DrawFn) -> Case:
    """A one-array function whose dtype the policy decides, of any dtype."""
    op = draw(st.sampled_from(sorted(FUNCTION_FAMILY)))
    shape = (2, 2) if op.startswith("linalg.") else draw(st.sampled_from([(3,), (2, 2)]))
    x = draw(operands(shape))
    if op.startswith("linalg."):  # symmetric positive definite, exact in every dtype: one answer
        x = Operand(x.dtype, (np.eye(2) if x.dtype.kind == "b" else np.eye(2) * 3 + 1).astype(x.values.dtype))
    return Case(op, "one_array", (x,), draw(st.sampled_from(promo_ns.policies())))


@st.composite
def nary_cases(draw: st.DrawFn) -> Case:
    """``where``, ``clip``, ``concat``, ``stack``, ``matmul``, ``vecdot``, ``result_type``, ``astype``."""
    op = draw(
        st.sampled_from(["where", "clip", "concat", "stack", "matmul", "vecdot", "result_type", "astype"])
    )
    policy = draw(st.sampled_from(promo_ns.policies()))
    shape = draw(st.sampled_from([(2,), (2, 2)]))
    if op == "where":
        cond = Operand(DTYPES[0], draw(hnp.arrays(np.bool_, shape)))
        return Case(
            op,
            "nary",
            (cond, draw(operands(shape)), draw(st.one_of(operands(shape), python_scalars()))),
            policy,
        )
    if op == "clip":
        bound = st.one_of(st.none(), python_scalars(), operands(()))
        return Case(op, "nary", (draw(operands(shape)), draw(bound), draw(bound)), policy)
    if op == "astype":
        return Case(op, "nary", (draw(operands(shape)), draw(st.sampled_from(DTYPES))), policy)
    if op == "result_type":
        parts = draw(
            st.lists(
                st.one_of(st.sampled_from(DTYPES), operands(()), python_scalars()), min_size=1, max_size=4
            )
        )
        return Case(op, "nary", tuple(parts), policy)
    arrays = draw(st.lists(operands(shape), min_size=2, max_size=3 if op in ("concat", "stack") else 2))
    return Case(op, "nary", tuple(arrays), policy)


# --- running a case on a backend --------------------------------------------------------------


@dataclass(frozen=True)
class _Built:
    """An operand already built on the backend (a mutating op's, looked at after it)."""

    array: Any


def _build(xp: Any, part: Any) -> Any:
    if isinstance(part, _Built):
        return part.array
    if isinstance(part, Operand):  # a copy: the NumPy backend wraps without one, and ops mutate
        if part.dtype.name == "bfloat16":
            return xp.astype(xp.asarray(part.values.copy()), xp.bfloat16)
        return xp.asarray(part.values.copy())
    if isinstance(part, DType):
        return getattr(xp, part.name)
    return part


def _key(xp: Any, key: Any) -> Any:
    if isinstance(key, tuple) and len(key) == 2 and key[0] in ("list", "numpy", "array"):
        kind, value = key
        return value if kind in ("list", "numpy") else xp.asarray(value)
    return key


def _snapshot(a: Any) -> tuple[tuple[int, ...], bytes] | None:
    if not has_values(a.__array_namespace__()):
        return tuple(a.shape), b""
    return tuple(a.shape), to_numpy(a).tobytes()


def call(xp: Any, case: Case) -> Any:
    """The case's op on namespace ``xp``: the result, or for a mutating op the operand after it."""
    ops = [_build(xp, p) for p in case.operands]
    if case.form == "function":
        return getattr(xp, case.op)(*ops)
    if case.form == "operator":
        return getattr(ops[0], f"__{DUNDER[case.op]}__")(ops[1])
    if case.form == "reflected":
        return getattr(ops[1], f"__r{DUNDER[case.op]}__")(ops[0])
    if case.form == "inplace":
        x = ops[0]
        out = getattr(x, f"__i{DUNDER[case.op]}__")(ops[1])
        assert out is x
        return x
    if case.form == "setitem":
        x, key, value = ops
        x[_key(xp, key)] = value
        return x
    if case.form == "one_array":
        owner, _, short = case.op.rpartition(".")
        return getattr(getattr(xp, owner) if owner else xp, short)(*ops)
    fn = getattr(xp, case.op)
    if case.op in ("concat", "stack"):
        return fn(ops)
    return fn(*ops)


def _as_complex(values: Any) -> Any:
    a = np.asarray(values)
    return a if a.dtype.kind == "c" else a.astype(np.float64)


def unique_parts(op: str, values: list[Any]) -> list[Any]:
    """``eigh``'s and ``svd``'s results as what is unique of them.

    Their vectors are unique only up to sign (cuSOLVER's and LAPACK's signs
    differ), and within a repeated eigenvalue's space not at all: they are
    compared through the matrix they rebuild and their Gram matrices.
    """
    if op not in ("linalg.eigh", "linalg.svd"):
        return values
    parts = [_as_complex(v) for v in values]

    def gram(m: Any) -> Any:
        return np.conj(np.swapaxes(m, -1, -2)) @ m

    if op == "linalg.eigh":
        w, v = parts
        return [values[0], (v * w[..., None, :]) @ np.conj(np.swapaxes(v, -1, -2)), gram(v)]
    u, s, vh = parts
    k = s.shape[-1]
    return [
        (u[..., :k] * s[..., None, :]) @ vh[..., :k, :],
        values[1],
        gram(u),
        gram(np.swapaxes(vh, -1, -2)),
    ]


def _result(out: Any, xp: Any, op: str = "") -> Outcome:
    if isinstance(out, tuple):  # eigh, slogdet, svd, ...
        parts = [_result(o, xp) for o in out]
        values: Any = unique_parts(op, [p.values for p in parts]) if has_values(xp) else None
        return Outcome(",".join(str(p.dtype) for p in parts), values)
    if not hasattr(out, "dtype") or not hasattr(out, "__array_namespace__"):  # result_type: a dtype
        return Outcome(str(out))
    assert out._p is out._ns._plans, "an array keeps its namespace's plans (the hot paths read them)"
    values = to_numpy(out) if has_values(xp) else None
    return Outcome(str(out.dtype), values)


def run(backend: str, case: Case) -> Outcome:
    """The outcome of ``case`` on ``backend`` (``"jax-x32"``: JAX with 64-bit types off)."""
    jax_x32 = backend == "jax-x32"
    context: Any = contextlib.nullcontext()
    if jax_x32:
        import jax

        context = jax.enable_x64(False)
    with context, np.errstate(all="ignore"):
        xp = namespace("jax" if jax_x32 else backend, case.policy)
        try:  # the operands first: what cannot be built (a 64-bit dtype on JAX without them) is no op
            built = tuple(
                _Built(_build(xp, part)) if isinstance(part, Operand) else part for part in case.operands
            )
        except Exception as e:
            return Outcome(error=e, built=False)
        target = built[0].array if case.mutates else None
        before = _snapshot(target) if target is not None else None
        try:
            return _result(call(xp, Case(case.op, case.form, built, case.policy)), xp, case.op)
        except Exception as e:
            intact = True
            if target is not None:
                try:
                    intact = _snapshot(target) == before
                except Exception:  # a lazy operand whose graph no longer computes
                    intact = False
            return Outcome(error=e, intact=intact)


def names_op(case: Case, error: BaseException) -> bool:
    """Whether promo_ns's message names the op (its function or the standard's name)."""
    if type(error).__name__ == "JaxX64Error":  # names the dtype JAX lacks and the switch, not the op
        return True
    text = str(error).lower()
    short = case.op.rpartition(".")[2]
    return any(word in text for word in (short, DUNDER.get(case.op, short), "setitem", "index"))


def same(ref: Outcome, got: Outcome, *, values: bool) -> bool:
    """Whether ``got`` is ``ref``: the same exception class, or the same dtype (and values)."""
    if ref.error is not None or got.error is not None:
        return ref.error is not None and got.error is not None and _kind(ref.error) is _kind(got.error)
    if ref.dtype != got.dtype:
        return False
    if not values or ref.values is None or got.values is None:
        return True
    return close_values(ref.values, got.values)


def same_bits(ref: Outcome, got: Outcome) -> bool:
    """Whether both gave the same dtype and bit-identical values (a NaN matching any NaN)."""
    if ref.dtype != got.dtype or ref.values is None or got.values is None:
        return ref.dtype == got.dtype
    a, b = np.asarray(ref.values), np.asarray(got.values)
    if a.shape != b.shape:
        return False
    if a.dtype.kind not in "fc" and str(a.dtype) != "bfloat16":
        return bool(np.array_equal(a, b))
    parts = (lambda v: (v.real, v.imag)) if a.dtype.kind == "c" else (lambda v: (v.astype(np.float64),))
    return all(
        bool(np.all((np.isnan(p) & np.isnan(q)) | ((p == q) & (np.signbit(p) == np.signbit(q)))))
        for p, q in zip(parts(a), parts(b), strict=True)
    )


def _kind(error: BaseException) -> type:
    if isinstance(error, promo_ns.PromotionError):
        return promo_ns.PromotionError
    for cls in ALLOWED:
        if isinstance(error, cls):
            return cls
    return type(error)


def close_values(a: Any, b: Any) -> bool:
    if isinstance(a, list):
        return (
            isinstance(b, list)
            and len(a) == len(b)
            and all(close_values(x, y) for x, y in zip(a, b, strict=True))
        )
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind in "fcV" or str(a.dtype) == "bfloat16":
        a, b = a.astype(np.complex128), b.astype(np.complex128)
        return bool(np.allclose(a, b, rtol=1e-2, atol=1e-5, equal_nan=True)) and bool(
            np.array_equal(np.isinf(a), np.isinf(b))
        )
    return bool(np.array_equal(a, b))


__all__ = [
    "ALLOWED",
    "DUNDER",
    "INPLACE",
    "Case",
    "Outcome",
    "binary_cases",
    "inplace_cases",
    "names_op",
    "nary_cases",
    "one_array_cases",
    "run",
    "same",
    "same_bits",
    "setitem_cases",
]
