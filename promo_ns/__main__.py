"""``python -m promo_ns``: print a policy's promotion grids.

``table POLICY [--op OP]`` prints, for ``OP`` (default ``add``), the grid of
n-d array with n-d array, of n-d array with each Python scalar kind, and of
n-d array with 0-d array, in the shape the frameworks' documents use
(``-`` marks a refused cell).  ``diff POLICY POLICY [--op OP]`` lists every
cell, any operand dtypes and roles, where two policies disagree.  ``demo``
runs the README's tour.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from promo_ns import PromotionError, get_policy, policies
from promo_ns._dtypes import DTYPES, DType
from promo_ns._engine import Operand, resolve
from promo_ns._ops import FAMILY
from promo_ns.policies import Policy
from promo_ns.policies._format import format_grid
from promo_ns.policies._model import SCALAR_COLUMNS, Role

_SCALAR_VALUES = {Role.BOOL: True, Role.INT: 1, Role.FLOAT: 1.0, Role.COMPLEX: 1j}


def _cell(policy: Policy, op: str, a: Operand, b: Operand) -> DType | None:
    try:
        return resolve(policy, op, a, b)
    except (PromotionError, OverflowError):
        return None


def tables(policy: Policy, op: str) -> str:
    """The grids of ``op`` under ``policy``, as text."""
    nd = [Operand(d, Role.ND) for d in DTYPES]
    zero = [Operand(d, Role.ZERO_D) for d in DTYPES]
    scalars = [Operand(None, r, _SCALAR_VALUES[r]) for r in SCALAR_COLUMNS.values()]

    def by(cols: Sequence[Operand]) -> str:
        return format_grid(
            DTYPES,
            list(cols),
            lambda d, c: _cell(policy, op, Operand(d, Role.ND), c),  # type: ignore[arg-type]
            [
                c.dtype.short if c.dtype else next(k for k, r in SCALAR_COLUMNS.items() if r is c.role)
                for c in cols
            ],
        )

    return "\n\n".join(
        [
            f"policy {policy.name!r} ({policy.reference}): {op}",
            "n-d array (rows) with n-d array (columns)",
            by(nd),
            "n-d array (rows) with Python scalar (columns)",
            by(scalars),
            "n-d array (rows) with 0-d array (columns)",
            by(zero),
        ]
    )


def diff(a: Policy, b: Policy, op: str) -> str:
    """Every cell of ``op`` (any operand dtypes and roles) where ``a`` and ``b`` disagree, as text."""
    from promo_ns._engine import Refusal, compute_table

    ta, tb = (compute_table(p, p.op_families.get(op) or FAMILY[op]) for p in (a, b))

    def show(cell: object) -> str:
        return "refused" if isinstance(cell, Refusal) else cell[0].name  # type: ignore[index]

    def side(d: DType | None, role: Role) -> str:
        return str(role) if d is None else f"{d} ({role})"

    rows = [
        (f"{op}({side(k[0], k[1])}, {side(k[2], k[3])})", show(ta[k]), show(tb[k]))
        for k in ta
        if (k[0] is not None or k[2] is not None) and show(ta[k]) != show(tb[k])
    ]
    if not rows:
        return f"{a.name!r} and {b.name!r} agree on every cell of {op}"
    width = max(len(r[0]) for r in rows)
    head = f"{'':{width}}  {a.name:>10}  {b.name:>10}"
    return "\n".join(
        [f"{len(rows)} cells of {op} where {a.name!r} and {b.name!r} disagree", head]
        + [f"{cell:{width}}  {x:>10}  {y:>10}" for cell, x, y in rows]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m promo_ns``."""
    parser = argparse.ArgumentParser(prog="python -m promo_ns", description=__doc__.split("\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    table = verbs.add_parser("table", help="print a policy's promotion grids")
    table.add_argument("policy", help=f"one of: {', '.join(policies())}")
    table.add_argument(
        "--op", default="add", choices=sorted(FAMILY), metavar="OP", help="an op name (default: add)"
    )
    compare = verbs.add_parser("diff", help="every cell where two policies disagree")
    compare.add_argument("policies", nargs=2, metavar="POLICY", help=f"two of: {', '.join(policies())}")
    compare.add_argument(
        "--op", default="add", choices=sorted(FAMILY), metavar="OP", help="an op name (default: add)"
    )
    verbs.add_parser("demo", help="a short tour of the policies")
    args = parser.parse_args(argv)
    if args.verb in ("table", "diff"):
        try:
            chosen = [get_policy(p) for p in ([args.policy] if args.verb == "table" else args.policies)]
        except KeyError as exc:
            parser.error(str(exc.args[0]))
        print(tables(chosen[0], args.op) if args.verb == "table" else diff(chosen[0], chosen[1], args.op))
        return 0
    from promo_ns._demo import demo

    demo()
    return 0


if __name__ == "__main__":
    sys.exit(main())
