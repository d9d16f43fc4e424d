"""``python -m promo_ns``: explore promotion policies from a terminal.

``table POLICY [--op OP] [--roles ROW:COL ...] [--svg]``
    the policy's grids of ``OP`` (default ``add``); ``--svg`` prints them as a picture.
``diff POLICY POLICY [POLICY ...] [--op OP] [--summary | --svg]``
    every cell, any operand dtypes and roles, where the policies disagree;
    ``--summary`` counts them per op (every op unless ``--op``) and per kind of answers.
``explain POLICY OP OPERAND OPERAND``
    the result of one op and the rule that decided, in words.  An operand is a
    dtype (``int8``, ``i8``, ``bool``: an n-d array; ``float64:0d``: a 0-d
    array; ``float32:npscalar``: a NumPy scalar) or a Python scalar (``1.5``,
    ``-1e3``, ``True``, ``1j``, or ``int``/``float``/``complex``).  A
    one-array function or a reduction takes one operand: ``explain numpy log int32``.
``check POLICY [--op OP]``
    the non-commutative cells and non-associative triples of ``OP``.
``ops [POLICY]``
    every op, grouped by the op family whose rules it follows.
``demo``
    one expression under every policy.

``OP`` is an op name (``add``, ``less``, ``atan2``, ...) or the name of an op
family as ``explain`` and ``ops`` print it, which stands for the first op of
that family under the policies given (``true_divide`` is ``divide``,
``arithmetic`` is ``add``); for ``table``, ``explain`` and ``diff`` also a
one-array function (``log``, ``mean``) or a reduction (``sum``), which ``ops``
lists too.  ``table`` and ``diff`` colour each answer by its
kind when the output is a terminal (``--color``; the ``NO_COLOR`` variable
turns it off).
"""

from __future__ import annotations

import argparse
import ast
import itertools
import os
import re
import sys
import textwrap
from collections import Counter
from collections.abc import Iterable, Sequence

from promo_ns._dtypes import BY_NAME, BY_SHORT, DTYPES, DType
from promo_ns._engine.decisions import compute_table, family_name
from promo_ns._engine.operands import Operand, Refusal, operand
from promo_ns._ops import FAMILY, FUNCTION_FAMILY
from promo_ns._words import closest
from promo_ns.explore.checks import check
from promo_ns.explore.explanation import explain
from promo_ns.explore.functions import ACCUMULATING, check_count, function_verb, is_function
from promo_ns.explore.pictures import disagreement, picture
from promo_ns.explore.tables import (
    DEFAULT_ROLES,
    ROLE_NAMES,
    SAMPLE_SCALARS,
    format_view,
    kind_key,
    legend,
    paint,
    parse_roles,
    view,
)
from promo_ns.policies import Policy, Role, get_policy, policies

#: Python scalar kinds written as words (``bool`` is the dtype; a Python bool is ``True``).
_WORDS = {r.name.lower(): v for r, v in SAMPLE_SCALARS.items() if r is not Role.BOOL}
#: The roles an operand written as a dtype may take (``int8:0d``).
_ARRAY_ROLES = [name for name, role in ROLE_NAMES.items() if role is not None]
#: A result kind in a word, for ``diff --summary``.
_KIND_WORD = {"b": "bool", "i": "int", "u": "uint", "f": "float", "c": "complex"}
_LIST_OPS = "'python -m promo_ns ops' lists the ops and op families"

Key = tuple[DType | None, Role, DType | None, Role]


def _plain(text: str) -> str:
    """Plain text for ``--help`` from reStructuredText.

    ``:func:`x``` becomes ``x``, double backticks go, and each run of lines
    with one indentation is wrapped again to 79 columns.
    """
    text = re.sub(r":[a-z]+:`~?([^`]*)`", r"\1", text).replace("``", "")
    out: list[str] = []
    for indent, group in itertools.groupby(
        text.split("\n"), key=lambda line: len(line) - len(line.lstrip()) if line.strip() else -1
    ):
        lines = list(group)
        if indent < 0 or len(lines) == 1:
            out += lines
        else:
            pad = " " * indent
            words = " ".join(line.strip() for line in lines)
            out += textwrap.wrap(words, 79, initial_indent=pad, subsequent_indent=pad, break_on_hyphens=False)
    return "\n".join(out)


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``" did you mean 'add'?"``, or ``""`` when nothing in ``choices`` is close to ``word``."""
    close = closest(word, choices)
    return f" did you mean {close!r}?" if close else ""


def _name(dtype: DType | None) -> str:
    return "refused" if dtype is None else dtype.name


def _policy(name: str) -> Policy:
    """The registered policy ``name``.

    Raises
    ------
    ValueError
        No policy is registered under ``name``; the message suggests a close name and lists them.
    """
    names = policies()
    if name not in names:
        raise ValueError(
            f"no promotion policy named {name!r};{_did_you_mean(name, names)} registered: {', '.join(names)}"
        )
    return get_policy(name)


def _ops_of(policy: Policy, family: str) -> list[str]:
    """The ops that follow ``family``'s rules under ``policy``, in :data:`FAMILY` order."""
    return [op for op in FAMILY if family_name(policy, op) == family]


def family_names(chosen: Sequence[Policy]) -> list[str]:
    """Every op family name that an op follows under one of ``chosen``, in :data:`FAMILY` order."""
    return list(dict.fromkeys(family_name(p, op) for op in FAMILY for p in chosen))


def resolve_op(name: str, chosen: Sequence[Policy]) -> str:
    """The op that ``name`` (an op, or an op family's name) stands for under the ``chosen`` policies.

    An op family's name stands for the first op (in :data:`promo_ns._ops.FAMILY`
    order) that follows that family's rules under every chosen policy:
    ``"true_divide"`` is ``"divide"``, ``"arithmetic"`` is ``"add"``.  A
    one-array function (``"log"``) or an accumulating reduction (``"sum"``)
    stands for itself.

    Raises
    ------
    ValueError
        ``name`` is neither an op nor an op family of the chosen policies (the
        message suggests a close name), or no op follows that family under
        every one of them.
    """
    if name in FAMILY or is_function(name):
        return name
    families = family_names(chosen)
    if name in families:
        common = [op for op in FAMILY if all(family_name(p, op) == name for p in chosen)]
        if common:
            return common[0]
        each = "; ".join(f"{p.name!r}: {', '.join(_ops_of(p, name)) or 'none'}" for p in chosen)
        raise ValueError(f"no op follows the {name!r} op family under every policy given ({each})")
    known = [*FAMILY, *families, *FUNCTION_FAMILY, *ACCUMULATING]
    raise ValueError(f"unknown op {name!r};{_did_you_mean(name, known)} {_LIST_OPS}")


def ops_text(policy: Policy | None = None) -> str:
    """Every op, grouped by the op family whose rules it follows (under ``policy``, if given)."""
    groups: dict[str, list[str]] = {}
    for op in FAMILY:
        groups.setdefault(family_name(policy, op) if policy is not None else FAMILY[op], []).append(op)
    width = max(len(f) for f in groups)
    where = f"under policy {policy.name!r}" if policy is not None else "as most policies group them"
    lines = [
        f"op families and their ops ({where}); as OP, an op family's name stands for its first op",
        *(f"  {family:<{width}}  {', '.join(ops)}" for family, ops in groups.items()),
    ]
    if policy is None:
        lines.append("a policy may give some ops rules of their own: 'ops POLICY' shows its grouping")
    functions: dict[str, list[str]] = {}
    for name, family in FUNCTION_FAMILY.items():
        functions.setdefault(family, []).append(name)
    width = max(len(f) for f in functions)
    lines += ["", "one-array functions by the column of the policy's function grid that decides their dtype"]
    lines += [f"  {family:<{width}}  {', '.join(names)}" for family, names in functions.items()]
    lines += ["", "reductions that accumulate in the policy's accumulation dtype (without dtype=)"]
    lines += [f"  {'accumulate':<{width}}  {', '.join(ACCUMULATING)}"]
    lines.append("'table POLICY --op log' and 'explain POLICY log int8' show their dtypes")
    return "\n".join(lines)


def tables(
    policy: Policy,
    op: str,
    roles: Sequence[tuple[Role, Role | None]],
    *,
    color: bool = False,
    family: str | None = None,
) -> str:
    """The grids of ``op`` under ``policy`` for each (row role, column role) pair, as text.

    Parameters
    ----------
    policy
        The policy deciding.
    op
        The op.
    roles
        One (row role, column role) pair per grid; a column role ``None`` is the Python scalars.
    color
        Paint each cell by its result's kind (ANSI).
    family
        The op family's name ``op`` was asked for by, if it was; the heading then names it.

    Returns
    -------
    str
        The heading, each grid under its title, and a two-line legend.
    """
    views = [view(policy, op, r, c) for r, c in roles]
    asked = f" (the first op of the {family!r} op family)" if family is not None else ""
    parts = [f"policy {policy.name!r} ({policy.reference}): {op}{asked}"]
    for v in views:
        parts += [v.title, format_view(v, color=color)]
    parts.append(legend(views, color=color))
    return "\n\n".join(parts)


def _answer(cell: object) -> DType | None:
    return None if isinstance(cell, Refusal) else cell[0]  # type: ignore[index]


_ROLE_ORDER = {r: i for i, r in enumerate(Role)}
_DTYPE_ORDER = {d: i for i, d in enumerate(DTYPES)}


def _order(key: Key) -> tuple[int, int, int, int]:
    """Operand roles first, then dtypes, each in canonical order."""
    return (
        _ROLE_ORDER[key[1]],
        _ROLE_ORDER[key[3]],
        _DTYPE_ORDER.get(key[0], -1),  # type: ignore[arg-type]
        _DTYPE_ORDER.get(key[2], -1),  # type: ignore[arg-type]
    )


def disagreements(chosen: Sequence[Policy], op: str) -> list[tuple[Key, list[DType | None]]]:
    """Every operand pair (with an array among them) where the ``chosen`` policies' answers to ``op`` differ.

    Each entry is the (dtype, role, dtype, role) key and each policy's answer
    (``None``: refused), sorted by operand roles, then dtypes, in canonical order.
    """
    tables_ = [compute_table(p, family_name(p, op)) for p in chosen]
    rows = []
    for k in tables_[0]:
        if k[0] is None and k[2] is None:
            continue
        answers = [_answer(t[k]) for t in tables_]
        if len(set(answers)) > 1:
            rows.append((k, answers))
    return sorted(rows, key=lambda row: _order(row[0]))


def _what(answers: Sequence[DType | None]) -> str:
    """The kind of a disagreement: ``"refused vs dtype"`` or ``"different dtype"``."""
    return "refused vs dtype" if None in answers else "different dtype"


def _names(chosen: Sequence[Policy]) -> str:
    return ", ".join(repr(p.name) for p in chosen[:-1]) + f" and {chosen[-1].name!r}"


def _diff_legend(color: bool) -> str:
    text = "refused: the policy raises PromotionError on these operands"
    return f"{text}; {kind_key(color)}" if color else text


def diff(chosen: Sequence[Policy], op: str, *, color: bool = False) -> str:
    """Every cell of ``op`` (any operand dtypes and roles) where the ``chosen`` policies disagree.

    The first line counts them (and each kind of disagreement); the cells
    follow, sorted by operand roles then dtypes, and a legend ends the text.

    Raises
    ------
    ValueError
        Fewer than two policies.
    """
    if len(chosen) < 2:
        raise ValueError("diff needs two or more policies")

    def side(d: DType | None, role: Role) -> str:
        return str(role) if d is None else f"{d} ({role})"

    found = disagreements(chosen, op)
    if not found:
        return f"{_names(chosen)} agree on every cell of {op}"
    rows = [(f"{op}({side(k[0], k[1])}, {side(k[2], k[3])})", answers) for k, answers in found]
    kinds = Counter(_what(answers) for _, answers in found)
    width = max(len(r[0]) for r in rows)
    cols = max(10, *(len(p.name) for p in chosen))
    head = f"{'':{width}}" + "".join(f"  {p.name:>{cols}}" for p in chosen)
    counts = ", ".join(f"{n} {what}" for what, n in kinds.most_common())
    return "\n".join(
        [f"{len(rows)} cells of {op} where {_names(chosen)} disagree ({counts})", head]
        + [
            f"{cell:{width}}" + "".join("  " + paint(f"{_name(d):>{cols}}", d, color) for d in answers)
            for cell, answers in rows
        ]
        + [_diff_legend(color)]
    )


def diff_summary(chosen: Sequence[Policy], ops: Sequence[str], *, color: bool = False) -> str:
    """How many cells of each op the ``chosen`` policies disagree on, and on what kinds of answers.

    Two tables, each sorted by count, largest first: per op (ops that follow
    the same op family under every chosen policy share a row), the cells
    and how many of them are a refusal against a dtype or two different
    dtypes; then, over all ``ops``, the cells per combination of the
    policies' answer kinds (``"refused / uint"``: the first policy refuses
    where the second gives an unsigned integer).

    Parameters
    ----------
    chosen
        Two or more policies.
    ops
        The ops to count.
    color
        Paint each kind of answer in its colour (ANSI).

    Returns
    -------
    str
        A count line, the two tables and a legend.

    Raises
    ------
    ValueError
        Fewer than two policies.
    """
    if len(chosen) < 2:
        raise ValueError("diff needs two or more policies")
    groups: dict[tuple[str, ...], list[str]] = {}
    for op in ops:
        groups.setdefault(tuple(family_name(p, op) for p in chosen), []).append(op)
    per_group: list[tuple[str, int, Counter[str]]] = []  # (ops, cells per op, kinds of disagreement)
    by_kinds: Counter[tuple[str, ...]] = Counter()
    for members in groups.values():
        found = disagreements(chosen, members[0])
        per_group.append((", ".join(members), len(found), Counter(_what(a) for _, a in found)))
        for _, answers in found:
            by_kinds[tuple(_KIND_WORD[d.kind] if d else "refused" for d in answers)] += len(members)
    total = sum(by_kinds.values())
    differ = sorted((g for g in per_group if g[1]), key=lambda g: -g[1])
    n_ops = sum(len(g[0].split(", ")) for g in differ)
    if not differ:
        return f"{_names(chosen)} agree on every cell of " + (f"{len(ops)} ops" if len(ops) > 1 else ops[0])
    scope = f"{n_ops} of {len(ops)} ops" if len(ops) > 1 else ops[0]
    lines = [f"{_names(chosen)} disagree on {total} cells of {scope}, over any operand dtypes and roles"]
    whats = ("refused vs dtype", "different dtype")
    width = max(len("op"), *(len(g[0]) for g in differ))
    lines += ["", f"{'op':<{width}}  {'cells':>6}" + "".join(f"  {w:>16}" for w in whats)]
    lines += [
        f"{label:<{width}}  {n:>6}" + "".join(f"  {kinds[w]:>16}" for w in whats)
        for label, n, kinds in differ
    ]
    if len(ops) > 1:
        lines.append("(ops in one row follow the same rules under each policy; cells are per op)")
    agree = [g[0] for g in per_group if not g[1]]
    if agree:
        lines.append(f"agree on every cell of: {', '.join(agree)}")
    title = f"answers ({' / '.join(p.name for p in chosen)})"
    labels = {kinds: " / ".join(kinds) for kinds in by_kinds}
    width = max(len(title), *(len(label) for label in labels.values()))
    lines += ["", f"{title:<{width}}  {'cells':>6}"]
    for kinds, n in sorted(by_kinds.items(), key=lambda item: (-item[1], labels[item[0]])):
        pad = " " * (width - len(labels[kinds]))
        label = " / ".join(paint(k, _LETTER.get(k), color) for k in kinds)
        lines.append(f"{label}{pad}  {n:>6}")
    lines.append(_diff_legend(color) + "; uint: unsigned integer")
    return "\n".join(lines)


_LETTER = {word: kind for kind, word in _KIND_WORD.items()}


def _suggest_operand(text: str) -> str:
    """A close, valid spelling of operand ``text`` (``"int9"`` -> ``"int8"``), or ``""``."""
    name, sep, role = text.partition(":")
    dtypes = [*BY_NAME, *BY_SHORT]
    if not sep:
        words = [*_WORDS, "True", "False"]
        first, then = (dtypes, words) if any(c.isdigit() for c in text) else (words, dtypes)
        close = _did_you_mean(text, first) or _did_you_mean(text, then)
        return f" ({close.strip()})" if close else ""
    role = role.lower().replace("o", "0") if len(role) == 2 else role.lower()  # "od", "0D" -> "0d"
    close_name = name if name in dtypes else closest(name, dtypes)
    close_role = role if role in _ARRAY_ROLES else closest(role, _ARRAY_ROLES)
    return f" (did you mean '{close_name}:{close_role}'?)" if close_name and close_role else ""


def parse_operand(text: str) -> Operand:
    """``"int8"``, ``"f64:0d"``, ``"1.5"``, ``"True"``, ``"float"`` -> the :class:`Operand`.

    Raises
    ------
    ValueError
        ``text`` is neither a dtype (with an optional array role) nor a Python
        scalar; the message suggests a close spelling where there is one.
    """
    name, _, role = text.partition(":")
    dtype = BY_NAME.get(name) or BY_SHORT.get(name)
    if dtype is not None and ROLE_NAMES.get(role or "nd") is not None:
        return Operand(dtype, ROLE_NAMES[role or "nd"])  # type: ignore[arg-type]
    if text in _WORDS:
        return operand(_WORDS[text])
    try:
        return operand(ast.literal_eval(text))
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        pass  # RecursionError, MemoryError: nesting too deep for Python's parser ("-" * 3000 + "1")
    shown = repr(text) if len(text) <= 60 else f"{text[:40]!r}... ({len(text)} characters)"
    raise ValueError(
        f"cannot read operand {shown}{_suggest_operand(text)}: write a dtype (int8 or i8), a dtype and "
        f"an array role (float64:0d, float32:npscalar), or a Python scalar (1.5, -3, True, 1j, int, float)"
    )


def _color(choice: str) -> bool:
    if choice == "auto":
        return sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    return choice == "always"


def _parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The command line's parser, and the parser of each verb."""
    doc = _plain(__doc__ or "")
    parser = argparse.ArgumentParser(
        prog="python -m promo_ns",
        description=doc.split("\n")[0],
        epilog=doc.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verbs = parser.add_subparsers(dest="verb", required=True)
    names = ", ".join(policies())
    op_help = (
        "an op name (add, less, atan2, ...) or an op family's name, which stands for its first op "
        "(true_divide: divide); 'ops' lists both"
    )

    def op_option(p: argparse.ArgumentParser, default: str | None = "add") -> None:
        p.add_argument("--op", default=default, metavar="OP", help=f"{op_help} (default: add)")

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
    compare.add_argument("--op", metavar="OP", help=f"{op_help} (default: add; with --summary, every op)")
    how = compare.add_mutually_exclusive_group()
    how.add_argument(
        "--summary",
        action="store_true",
        help="count the cells per op and per kind of answers instead of listing them",
    )
    how.add_argument("--svg", action="store_true", help="print an SVG picture of the n-d grids")
    color_option(compare)
    why = verbs.add_parser("explain", help="one op's result and the rule that decided")
    why.add_argument("policy", help=f"one of: {names}")
    why.add_argument("op", metavar="OP", help=op_help)
    why.add_argument(
        "operands",
        nargs="+",
        metavar="OPERAND",
        help="int8, f64:0d, 1.5, True, ...: two for an op, one array for a function (log, sum)",
    )
    check = verbs.add_parser("check", help="non-commutative cells and non-associative triples")
    check.add_argument("policy", help=f"one of: {names}")
    op_option(check)
    listing = verbs.add_parser("ops", help="every op, grouped by op family")
    listing.add_argument("policy", nargs="?", help=f"group as this policy does: one of {names}")
    verbs.add_parser("demo", help="one expression under every policy")
    audit = verbs.add_parser("compare", help="run a script under compare() and print its report")
    audit.add_argument("policies", metavar="POLICIES", help="comma-separated, the first runs the script")
    audit.add_argument("script", help="the Python script (after --), then its arguments")
    audit.add_argument("args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser, {
        "compare": audit,
        "table": table,
        "diff": compare,
        "explain": why,
        "check": check,
        "ops": listing,
    }


def _compare(parser: argparse.ArgumentParser, names: str, script: str, args: Sequence[str]) -> int:
    """``compare POLICIES -- script.py [args]``: the script's own exit status, the report printed after it."""
    from promo_ns.audit import run_script

    chosen = [n.strip() for n in names.split(",") if n.strip()]
    try:
        if len(chosen) < 2:
            raise ValueError(f"compare takes two or more policies, e.g. numpy,pytorch; got {names!r}")
        policies = [_policy(n) for n in chosen]
        if not os.path.isfile(script):
            raise ValueError(f"no script {script!r}: give the path of a Python file after --")
    except ValueError as exc:
        parser.error(str(exc))
    report, status = run_script(policies, script, args)
    print(report)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m promo_ns`` with ``argv`` (default: the command line's arguments).

    Parameters
    ----------
    argv
        The arguments after ``python -m promo_ns``.

    Returns
    -------
    int
        The exit status: 0; a usage error exits with status 2 through :mod:`argparse`.
    """
    parser, verbs = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["explain"] and not {"-h", "--help", "--"} & set(argv):
        argv.insert(1, "--")  # operands such as -1e3 or -1j are not options
    args = parser.parse_args(argv)
    if args.verb == "demo":
        from promo_ns.explore.demo import demo

        demo()
        return 0
    if args.verb == "compare":
        return _compare(verbs["compare"], args.policies, args.script, args.args)
    color = _color(getattr(args, "color", "never"))
    try:
        if args.verb == "ops":
            print(ops_text(_policy(args.policy) if args.policy else None))
            return 0
        chosen = [_policy(p) for p in (args.policies if args.verb == "diff" else [args.policy])]
        if args.verb == "diff" and len(chosen) < 2:
            raise ValueError("diff needs two or more policies")
        op = resolve_op(args.op or "add", chosen)
        asked = args.op if args.op and args.op != op else None
        if args.verb == "explain":
            operands = [parse_operand(o) for o in args.operands]
            check_count(op, operands)
        if is_function(op) and (args.verb == "check" or getattr(args, "svg", False)):
            raise ValueError(
                f"{op!r} is a function of one array; {'check' if args.verb == 'check' else '--svg'} "
                f"takes ops of two operands: 'table POLICY --op {op}' shows its dtypes"
            )
        roles = parse_roles(args.roles) if args.verb == "table" else []
    except ValueError as exc:
        verbs[args.verb].error(str(exc))
    if is_function(op):
        print(function_verb(args.verb, chosen, op, operands if args.verb == "explain" else [], color))
    elif args.verb == "table" and args.svg:
        print(picture([view(chosen[0], op, r, c) for r, c in roles]), end="")
    elif args.verb == "table":
        print(tables(chosen[0], op, roles, color=color, family=asked))
    elif args.verb == "diff" and args.summary:
        print(diff_summary(chosen, [op] if args.op else list(FAMILY), color=color))
    elif args.verb == "diff" and args.svg:
        print(disagreement([[view(p, op, Role.ND, Role.ND)] for p in chosen]), end="")
    elif args.verb == "diff":
        print(diff(chosen, op, color=color))
    elif args.verb == "explain":
        print(explain(chosen[0], op, operands[0], operands[1]))
    else:
        print(check(chosen[0], op))
    return 0
