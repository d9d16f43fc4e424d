"""``python -m promo_ns``: explore promotion policies from a terminal.

``table POLICY [--op OP] [--roles ROW:COL ...] [--svg]``
    the policy's grids of ``OP`` (default ``add``); ``--svg`` prints them as a picture.
``diff POLICY POLICY [POLICY ...] [--op OP] [--svg]``
    every cell, any operand dtypes and roles, where the policies disagree.
``explain POLICY OP OPERAND OPERAND``
    the result of one op and the rule that decided, in words.  An operand is a
    dtype (``int8``, ``i8``, ``bool``: an n-d array; ``float64:0d``: a 0-d
    array; ``float32:npscalar``: a NumPy scalar) or a Python scalar (``1.5``,
    ``-1e3``, ``True``, ``1j``, or ``int``/``float``/``complex``).
``check POLICY [--op OP]``
    the non-commutative cells and non-associative triples of ``OP``.
``demo``
    one expression under every policy.

``table`` and ``diff`` colour each answer by its kind when the output is a
terminal (``--color``; the ``NO_COLOR`` variable turns it off).
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from collections.abc import Sequence

from promo_ns import get_policy, policies
from promo_ns._dtypes import BY_NAME, BY_SHORT, DType
from promo_ns._engine import Operand, Refusal, compute_table, explain, family_name, operand
from promo_ns._ops import FAMILY
from promo_ns.policies import Policy
from promo_ns.policies._format import (
    DEFAULT_ROLES,
    ROLE_NAMES,
    SAMPLE_SCALARS,
    format_view,
    paint,
    parse_roles,
    view,
)
from promo_ns.policies._model import Role
from promo_ns.policies._picture import disagreement, picture

#: Python scalar kinds written as words (``bool`` is the dtype; a Python bool is ``True``).
_WORDS = {r.name.lower(): v for r, v in SAMPLE_SCALARS.items() if r is not Role.BOOL}


def _name(dtype: DType | None) -> str:
    return "refused" if dtype is None else dtype.name


def tables(policy: Policy, op: str, roles: Sequence[tuple[Role, Role | None]], *, color: bool = False) -> str:
    """The grids of ``op`` under ``policy`` for each (row role, column role) pair, as text."""
    views = [view(policy, op, r, c) for r, c in roles]
    parts = [f"policy {policy.name!r} ({policy.reference}): {op}"]
    for v in views:
        parts += [v.title, format_view(v, color=color)]
    return "\n\n".join(parts)


def diff(chosen: Sequence[Policy], op: str, *, color: bool = False) -> str:
    """Every cell of ``op`` (any operand dtypes and roles) where the ``chosen`` policies disagree.

    Raises
    ------
    ValueError
        Fewer than two policies.
    """
    if len(chosen) < 2:
        raise ValueError("diff needs two or more policies")
    tables_ = [compute_table(p, family_name(p, op)) for p in chosen]

    def answer(cell: object) -> DType | None:
        return None if isinstance(cell, Refusal) else cell[0]  # type: ignore[index]

    def side(d: DType | None, role: Role) -> str:
        return str(role) if d is None else f"{d} ({role})"

    rows = [
        (f"{op}({side(k[0], k[1])}, {side(k[2], k[3])})", [answer(t[k]) for t in tables_])
        for k in tables_[0]
        if (k[0] is not None or k[2] is not None) and len({answer(t[k]) for t in tables_}) > 1
    ]
    names = ", ".join(repr(p.name) for p in chosen[:-1]) + f" and {chosen[-1].name!r}"
    if not rows:
        return f"{names} agree on every cell of {op}"
    width = max(len(r[0]) for r in rows)
    cols = max(10, *(len(p.name) for p in chosen))
    head = f"{'':{width}}" + "".join(f"  {p.name:>{cols}}" for p in chosen)
    return "\n".join(
        [f"{len(rows)} cells of {op} where {names} disagree", head]
        + [
            f"{cell:{width}}" + "".join("  " + paint(f"{_name(d):>{cols}}", d, color) for d in answers)
            for cell, answers in rows
        ]
    )


def parse_operand(text: str) -> Operand:
    """``"int8"``, ``"f64:0d"``, ``"1.5"``, ``"True"``, ``"float"`` -> the :class:`Operand`.

    Raises
    ------
    ValueError
        ``text`` is neither a dtype (with an optional array role) nor a Python scalar.
    """
    name, _, role = text.partition(":")
    dtype = BY_NAME.get(name) or BY_SHORT.get(name)
    if dtype is not None and ROLE_NAMES.get(role or "nd") is not None:
        return Operand(dtype, ROLE_NAMES[role or "nd"])  # type: ignore[arg-type]
    if text in _WORDS:
        return operand(_WORDS[text])
    try:
        return operand(ast.literal_eval(text))
    except (ValueError, SyntaxError, TypeError):
        pass
    raise ValueError(
        f"cannot read operand {text!r}: write a dtype (int8 or i8), a dtype and an array role "
        f"(float64:0d, float32:npscalar), or a Python scalar (1.5, -3, True, 1j, int, float)"
    )


def _color(choice: str) -> bool:
    if choice == "auto":
        return sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    return choice == "always"


def _parser() -> argparse.ArgumentParser:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(
        prog="python -m promo_ns",
        description=doc.split("\n")[0],
        epilog=doc.split("\n\n", 1)[1].replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verbs = parser.add_subparsers(dest="verb", required=True)
    names = ", ".join(policies())

    def op_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--op", default="add", choices=sorted(FAMILY), metavar="OP", help="an op (default: add)"
        )

    def color_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--color", choices=("auto", "always", "never"), default="auto", help="colour by result kind"
        )

    table = verbs.add_parser("table", help="a policy's promotion grids")
    table.add_argument("policy", help=f"one of: {names}")
    op_option(table)
    table.add_argument(
        "--roles",
        nargs="+",
        default=list(DEFAULT_ROLES),
        metavar="ROW:COL",
        help=f"grids to show: ROW one of nd, 0d, npscalar; COL one of {', '.join(ROLE_NAMES)} "
        f"(default: {' '.join(DEFAULT_ROLES)})",
    )
    table.add_argument("--svg", action="store_true", help="print an SVG picture instead of text")
    color_option(table)
    compare = verbs.add_parser("diff", help="every cell where policies disagree")
    compare.add_argument("policies", nargs="+", metavar="POLICY", help=f"two or more of: {names}")
    op_option(compare)
    compare.add_argument("--svg", action="store_true", help="print an SVG picture of the n-d grids")
    color_option(compare)
    why = verbs.add_parser("explain", help="one op's result and the rule that decided")
    why.add_argument("policy", help=f"one of: {names}")
    why.add_argument("op", choices=sorted(FAMILY), metavar="OP", help="an op name: add, less, atan2, ...")
    why.add_argument("operands", nargs=2, metavar="OPERAND", help="int8, f64:0d, 1.5, True, ...")
    check = verbs.add_parser("check", help="non-commutative cells and non-associative triples")
    check.add_argument("policy", help=f"one of: {names}")
    op_option(check)
    verbs.add_parser("demo", help="one expression under every policy")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m promo_ns``."""
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["explain"] and not {"-h", "--help", "--"} & set(argv):
        argv.insert(1, "--")  # operands such as -1e3 or -1j are not options
    args = parser.parse_args(argv)
    if args.verb == "demo":
        from promo_ns._demo import demo

        demo()
        return 0
    try:
        chosen = [get_policy(p) for p in (args.policies if args.verb == "diff" else [args.policy])]
        if args.verb == "explain":
            operands = [parse_operand(o) for o in args.operands]
        roles = parse_roles(args.roles) if args.verb == "table" else []
        text = diff(chosen, args.op, color=_color(args.color)) if args.verb == "diff" else ""
    except (KeyError, ValueError) as exc:
        parser.error(str(exc.args[0]))
    if args.verb == "table" and args.svg:
        print(picture([view(chosen[0], args.op, r, c) for r, c in roles]), end="")
    elif args.verb == "table":
        print(tables(chosen[0], args.op, roles, color=_color(args.color)))
    elif args.verb == "diff" and args.svg:
        print(disagreement([[view(p, args.op, Role.ND, Role.ND)] for p in chosen]), end="")
    elif args.verb == "diff":
        print(text)
    elif args.verb == "explain":
        print(explain(chosen[0], args.op, operands[0], operands[1]))
    else:
        print(chosen[0].check(args.op))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader (``| head``) stopped early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
