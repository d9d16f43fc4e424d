"""Cases of the functions beyond the element-wise ones: n-ary, products, search, dtypes, creation, ...

Imported by :mod:`conformance.probe._space`, which assembles every kind's cases.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from conformance.probe._model import DTYPES, EDGE_SCALARS, SCALARS, Case, rotated
from conformance.probe._model import arrays as _arrays

__all__ = ["KEEPING", "LINALG_BINARY", "SEARCH", "more_cases", "nary_cases"]


#: Functions that keep their input's dtype (or give an index dtype), with their extra arguments.
KEEPING: dict[str, tuple[str, ...]] = {
    "reshape": ("lit:(3, 2)",),
    "flip": (),
    "broadcast_to": ("lit:(2, 2, 3)",),
    "expand_dims": ("lit:0",),
    "moveaxis": ("lit:0", "lit:1"),
    "permute_dims": ("lit:(1, 0)",),
    "repeat": ("lit:2",),
    "roll": ("lit:1",),
    "squeeze": ("lit:1",),
    "tile": ("lit:(2, 1)",),
    "unstack": (),
    "matrix_transpose": (),
    "tril": (),
    "triu": (),
    "sort": (),
    "argsort": (),
    "nonzero": (),
    "unique_all": (),
    "unique_counts": (),
    "unique_inverse": (),
    "unique_values": (),
    "take": ("int64:idx:one",),
    "take_along_axis": ("int64:idx2:one",),
    "from_dlpack": (),
    "empty_like": (),
    "ones_like": (),
    "zeros_like": (),
    "full_like": ("py:int:1",),
    "linalg.diagonal": (),
    "linalg.matrix_transpose": (),
    "fft.fftshift": (),
    "fft.ifftshift": (),
}
LINALG_BINARY = (
    *("matmul", "tensordot", "vecdot", "linalg.matmul", "linalg.tensordot", "linalg.vecdot"),
    *("linalg.outer", "linalg.cross", "linalg.solve"),
)
SEARCH = ("searchsorted", "isin")


def nary_cases() -> Iterator[Case]:
    nds, arrays = _arrays(("nd",)), _arrays()
    dts = [f"dt:{d}" for d in DTYPES]
    toks = [*dts, *arrays, *SCALARS]
    # result_type: every pair and triple of dtypes, a rotation of arrays and scalars, quadruples sampled
    yield from (Case("nary", "result_type", "function", (t,)) for t in toks)
    yield from (Case("nary", "result_type", "function", (a, b)) for a in dts for b in dts)
    yield from (Case("nary", "result_type", "function", (a, b)) for a, b in rotated(0, arrays, arrays))
    yield from (
        Case("nary", "result_type", "function", (a, s))
        for a in dts + arrays
        for s in (*SCALARS, *EDGE_SCALARS[2:14])
    )
    yield from (Case("nary", "result_type", "function", (a, b, c)) for a in dts for b in dts for c in dts)
    for n, (a, b, c, d) in enumerate(_tuples(4, 600)):
        yield Case("nary", "result_type", "function", tuple(f"dt:{x}" for x in (a, b, c, d)))
        if n % 3 == 0:
            yield Case(
                "nary", "result_type", "function", (f"{a}:0d:one", f"dt:{b}", SCALARS[n % 4], f"{c}:nd:one")
            )
    for op in ("concat", "stack"):
        yield from (Case("nary", op, "function", (a,)) for a in nds)
        yield from (Case("nary", op, "function", (a, b)) for a in nds for b in nds)
        yield from (
            Case("nary", op, "function", tuple(f"{x}:nd:one" for x in t)) for t in _tuples(3, 400, op)
        )
        yield from (
            Case("nary", op, "function", tuple(f"{x}:nd:one" for x in t)) for t in _tuples(4, 150, op)
        )
        yield from (Case("nary", op, "function", (f"{d}:nd:edge", f"{d}:nd:one")) for d in DTYPES)
    cond, edge_cond = "bool:nd:one", "bool:col:edge"
    yield from (
        Case("nary", "where", "function", (cond, a, b))
        for a in arrays
        for b in arrays
        if "0d" not in a or "0d" not in b
    )
    yield from (Case("nary", "where", "function", (cond, a, s)) for a in arrays for s in SCALARS)
    yield from (Case("nary", "where", "function", (cond, s, a)) for a in arrays for s in SCALARS)
    yield from (
        Case("nary", "where", "function", (edge_cond, f"{d}:nd:edge", s))
        for d in DTYPES
        for s in EDGE_SCALARS
    )
    bounds = ["none", *SCALARS, *_arrays(("0d",))]
    yield from (Case("nary", "clip", "function", (x, lo, "none")) for x in nds for lo in bounds[1:])
    yield from (Case("nary", "clip", "function", (x, "none", hi)) for x in nds for hi in bounds[1:])
    yield from (Case("nary", "clip", "function", (x, lo, hi)) for x, lo, hi in _clip_triples(bounds))
    yield from (
        Case("nary", "clip", "function", (f"{d}:nd:edge", s, "none")) for d in DTYPES for s in EDGE_SCALARS
    )
    for op in ("meshgrid", "broadcast_arrays"):
        for arity in (1, 2, 3, 4):
            yield from (
                Case("nary", op, "function", tuple(f"{x}:nd:one" for x in t)) for t in _tuples(arity, 15, op)
            )


def _tuples(arity: int, count: int, salt: str = "") -> list[tuple[str, ...]]:
    """``count`` deterministic ``arity``-tuples of dtypes, every dtype in every position."""
    out = []
    for n in range(count):
        h = zlib.crc32(f"{salt}{arity}:{n}".encode())
        out.append(tuple(DTYPES[(n + i * (h >> (4 * i))) % len(DTYPES)] for i in range(arity)))
    return out


def _clip_triples(bounds: list[str]) -> Iterator[tuple[str, str, str]]:
    for i, d in enumerate(DTYPES):
        for j, lo in enumerate(bounds[1:]):
            yield f"{d}:nd:one", lo, bounds[1 + (i + j) % (len(bounds) - 1)]


def _two_arrays() -> Iterator[Case]:
    mats, vecs = [f"{d}:mat:one" for d in DTYPES], _arrays(("nd",))
    for op in LINALG_BINARY:
        short = op.rpartition(".")[2]
        ins = vecs if short in ("vecdot", "outer", "cross") else mats
        yield from (Case("linalg_binary", op, "function", (a, b)) for a in ins for b in ins)
        if op == "matmul":
            yield from (
                Case("linalg_binary", op, s, (a, b))
                for s in ("operator", "inplace")
                for a in mats
                for b in mats
            )
        if short == "tensordot":
            yield from (
                Case("linalg_binary", op, "function", (a, b), (("axes", "lit:1"),))
                for a in vecs[:15:3]
                for b in vecs
            )
    for op in SEARCH:
        first = [f"{d}:sorted:one" for d in DTYPES] if op == "searchsorted" else vecs
        yield from (Case("search", op, "function", (a, b)) for a in first for b in vecs)
        yield from (
            Case("search", op, "function", (a, b)) for a in first for b in (*_arrays(("0d",)), *SCALARS)
        )
        yield from (Case("search", op, "function", (a, s)) for a in first[::2] for s in EDGE_SCALARS)


def _dtype_functions() -> Iterator[Case]:
    for a in DTYPES:
        for b in DTYPES:
            yield Case("can_cast", "can_cast", "function", (f"dt:{a}", f"dt:{b}"))
            yield Case("astype", "astype", "function", (f"{a}:nd:one", f"dt:{b}"))
            yield Case("astype", "astype", "function", (f"{a}:nd:edge", f"dt:{b}"))
        yield Case("can_cast", "can_cast", "function", (f"{a}:nd:one", "dt:float64"))
        for kind in (
            "bool",
            "signed integer",
            "unsigned integer",
            "integral",
            "real floating",
            "complex floating",
            "numeric",
        ):
            yield Case("isdtype", "isdtype", "function", (f"dt:{a}", f"lit:{kind!r}"))
        yield Case("finfo", "finfo", "function", (f"dt:{a}",))
        yield Case("iinfo", "iinfo", "function", (f"dt:{a}",))
    yield Case("info", "broadcast_shapes", "function", ("lit:(2, 1)", "lit:(3,)"))
    yield Case("info", "broadcast_shapes", "function", ("lit:(2,)", "lit:(3,)"))


def _creation() -> Iterator[Case]:
    data = [
        *SCALARS, *EDGE_SCALARS, "lit:[1, 2]", "lit:[1, 2.5]", "lit:[True, 2]", "lit:[1, 2j]", "lit:[]",
        "lit:[[1, 2], [3, 4]]", f"lit:[1, {2**63}]", f"lit:[{-(2**63)}, {2**64 - 1}]", "lit:[1.5, True, 3]",
    ]  # fmt: skip
    for x in data:
        yield Case("creation", "asarray", "function", (x,))
        for d in ("int8", "uint8", "float16", "float32", "complex64", "bool"):
            yield Case("creation", "asarray", "function", (x,), (("dtype", f"dt:{d}"),))
    for d in DTYPES:
        yield Case("creation", "asarray", "function", (f"{d}:nd:one",))
        yield Case("creation", "asarray", "function", ("lit:[1, 0]",), (("dtype", f"dt:{d}"),))
    ranges = [("3",), ("3.5",), ("1", "4"), ("0.5", "3"), ("1", "4", "2"), ("0", "1", "0.25"), ("True", "3")]
    for r in ranges:
        args = tuple(f"lit:{a}" for a in r)
        yield Case("creation", "arange", "function", args)
        for d in DTYPES:
            yield Case("creation", "arange", "function", args, (("dtype", f"dt:{d}"),))
    for args in (
        ("lit:0", "lit:1", "lit:5"),
        ("lit:0", "lit:10", "lit:4"),
        ("lit:0.5", "lit:2", "lit:3"),
        ("lit:0", "py:complex:(1+1j)", "lit:3"),
    ):
        yield Case("creation", "linspace", "function", args)
        yield from (Case("creation", "linspace", "function", args, (("dtype", f"dt:{d}"),)) for d in DTYPES)
    for v in (*SCALARS, *EDGE_SCALARS):
        yield Case("creation", "full", "function", ("lit:(2,)", v))
        yield from (
            Case("creation", "full", "function", ("lit:(2,)", v), (("dtype", f"dt:{d}"),))
            for d in DTYPES[::2]
        )
    for name in ("zeros", "ones", "empty", "eye", "fft.fftfreq", "fft.rfftfreq"):
        arg = "lit:3" if name in ("eye", "fft.fftfreq", "fft.rfftfreq") else "lit:(2,)"
        yield Case("creation", name, "function", (arg,))
        yield from (Case("creation", name, "function", (arg,), (("dtype", f"dt:{d}"),)) for d in DTYPES)


def _keeping() -> Iterator[Case]:
    for name, extra in KEEPING.items():
        shape = (
            "m23"
            if name
            in (
                "reshape",
                "broadcast_to",
                "tile",
                "take_along_axis",
                "moveaxis",
                "permute_dims",
                "matrix_transpose",
                "tril",
                "triu",
                "unstack",
                "linalg.diagonal",
                "linalg.matrix_transpose",
                "squeeze",
            )
            else "nd"
        )
        if name == "squeeze":
            shape = "col"
        for d in DTYPES:
            x = f"{d}:{shape}:{'edge' if shape == 'col' else 'one'}"
            yield Case("keeping", name, "function", (x, *extra))
            if name in ("empty_like", "ones_like", "zeros_like", "full_like"):
                yield from (
                    Case("keeping", name, "function", (x, *extra), (("dtype", f"dt:{t}"),)) for t in DTYPES
                )
        if name == "full_like":
            yield from (
                Case("keeping", name, "function", (f"{d}:nd:one", s)) for d in DTYPES for s in EDGE_SCALARS
            )


def _setitem() -> Iterator[Case]:
    for a in _arrays(("nd",)):
        for v in (*_arrays(("0d",)), *SCALARS):
            yield Case("setitem", "setitem", "setitem", (a, v))
        for v in EDGE_SCALARS:
            yield Case("setitem", "setitem", "setitem", (a, v))


def more_cases() -> Iterator[Case]:
    """The cases of every kind made here (the same under every policy)."""
    yield from _two_arrays()
    yield from _dtype_functions()
    yield from _creation()
    yield from _keeping()
    yield from _setitem()
