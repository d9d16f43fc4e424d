"""Large arrays take other paths than small ones (NumPy casts into the output first): same answers.

Every mixed-dtype pair a policy allows, for a few ops and broadcast shapes, on
arrays past the size where the large path starts: the result must be the
small-array result tiled, with the same dtype, and the operands unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest

from promo_ns import PromotionError
from promo_ns._dtypes import DTYPES
from promo_ns.backends.numpylike import _CAST_INTO_OUTPUT
from tests.backends import GRID_BACKENDS, POLICIES, backend_name, close, namespace, to_numpy

SMALL = {"b": [True, False] * 4, "i": [1, 2, 3, 4, 5, 6, 7, 8], "u": [1, 2, 3, 4, 5, 6, 7, 8]}
SMALL |= {"f": [0.5, 1.5, 2.5, 3.0, 4.25, 5.5, 6.0, 7.75], "c": [0.5 + 1j, 1.5 - 2j, 2.5, 3j, 4, 5, 6, 7]}
N = _CAST_INTO_OUTPUT  #: where the large path starts
#: The backends that have a large path: NumPy's and CuPy's adapter (torch's has none).
BACKENDS = [b for b in GRID_BACKENDS if backend_name(b) in ("numpy", "cupy")]
OPS = ("add", "multiply", "divide")
#: (left shape, right shape): the large operand on either side, or on none.
SHAPES = (
    ((N,), (N,)),
    ((N,), (1,)),
    ((1,), (N,)),
    ((N // 8, 8), (8,)),
    ((N, 1), (1, 2)),  # neither operand has the result's shape
)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning", "ignore:divide by zero:RuntimeWarning")
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_large_mixed_ops_equal_the_small_results(backend: str, policy: str) -> None:
    """Each large result is read off the 8x8 table of the same op on small arrays."""
    xp = namespace(backend, policy)
    dtypes = [d for d in DTYPES if d.name in xp.__array_namespace_info__().dtypes()]
    failures = []
    for op in OPS:
        fn = getattr(xp, op)
        for d1 in dtypes:
            for d2 in dtypes:
                if d1 is d2:
                    continue
                try:
                    table = fn(
                        xp.asarray(SMALL[d1.kind], dtype=d1)[:, None], xp.asarray(SMALL[d2.kind], dtype=d2)
                    )
                except PromotionError:
                    continue
                for s1, s2 in SHAPES:
                    i1, i2 = (np.resize(np.arange(8), s) for s in (s1, s2))
                    v1, v2 = np.asarray(SMALL[d1.kind])[i1], np.asarray(SMALL[d2.kind])[i2]
                    x, y = xp.asarray(v1, dtype=d1), xp.asarray(v2, dtype=d2)
                    got = fn(x, y)
                    cell = f"{op}({d1}{list(s1)}, {d2}{list(s2)})"
                    if got.dtype is not table.dtype:
                        failures.append(f"{cell}: dtype {got.dtype}, small arrays give {table.dtype}")
                    before = v1.astype(to_numpy(x).dtype), v2.astype(to_numpy(y).dtype)
                    want = to_numpy(table)[np.broadcast_arrays(i1, i2)]
                    if not close(to_numpy(got), want, got.dtype):
                        failures.append(f"{cell}: values differ from the small-array result")
                    if not all(np.array_equal(to_numpy(v), b) for v, b in zip((x, y), before, strict=True)):
                        failures.append(f"{cell}: an operand changed")
    assert not failures, f"{len(failures)} cells wrong:\n" + "\n".join(failures)


@pytest.mark.parametrize("policy", POLICIES)
def test_large_bfloat16_mixed_ops_on_numpy(policy: str) -> None:
    """ml_dtypes' bfloat16 (not in array-api-compat's dtype list, so not above) takes the same paths."""
    xp = namespace("numpy", policy)
    for other in ("bool", "int8", "uint8", "int16", "float16", "float32"):
        a, b = xp.ones(N, dtype=xp.bfloat16), xp.full(N, 2, dtype=getattr(xp, other))
        for x, y in ((a, b), (b, a)):
            try:
                big = x + y
            except PromotionError:
                continue
            small = x[:8] + y[:8]
            assert big.dtype is small.dtype, other
            assert np.array_equal(to_numpy(big), np.resize(to_numpy(small), N)), other
