"""An in-place op keeps ``x``'s shape: a result of another shape is NumPy's ValueError on every backend.

NumPy's ufuncs refuse an ``out=`` the result does not fit; promo_ns's NumPy
adapter computes some in-place ops (bool ``**``, integer ``**``, ``//`` and
``%`` where the policy raises on zero) into a temporary first, and NumPy's
setitem would drop the temporary's leading 1s into a 0-d ``x``.
"""

from __future__ import annotations

import pytest

from tests.backends import BACKENDS, namespace

CASES = {
    "bool **= bool": ("bool", "bool", "__ipow__"),
    "int8 **= int8": ("int8", "int8", "__ipow__"),
    "int8 //= int8": ("int8", "int8", "__ifloordiv__"),
    "int8 %= int8": ("int8", "int8", "__imod__"),
    "float32 += float32": ("float32", "float32", "__iadd__"),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES)
def test_a_0d_x_takes_no_result_of_shape_1(backend: str, case: str) -> None:
    left, right, method = CASES[case]
    xp = namespace(backend, "pytorch")
    x = xp.asarray(True if left == "bool" else 3, dtype=getattr(xp, left))
    y = xp.asarray([True] if right == "bool" else [2], dtype=getattr(xp, right))
    with pytest.raises(ValueError, match=r"shapes that do not fit together \(\(\), \(1,\)\)"):
        getattr(x, method)(y)
    assert x.shape == ()
