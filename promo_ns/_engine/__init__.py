"""The promotion engine: policy data in, result dtypes (or reasons to refuse) out.

Each name has one home; import it from there:

- :mod:`.operands`: :class:`~.operands.Operand`, :class:`~.operands.Refusal`,
  :class:`~.operands.PromotionError`, what the engine decides over and answers;
- :mod:`.decisions`: one cell decided in named stages (:func:`~.decisions.cell`,
  :func:`~.decisions.run`), the promotion folds through the grids, and the
  compiled tables (:func:`~.decisions.compute_table`);
- :mod:`.scalars`: the checks of Python ints, floats and complexes against dtypes;
- :mod:`.functions`: the dtypes of one-array functions (reductions, delegated,
  float-only functions) and the kinds functions take;
- :mod:`.messages`: refusals in words, with the cast that fixes them;
- :mod:`.resolution`: :func:`~.resolution.resolve` and
  :func:`~.resolution.resolve_many`, an op's decision looked up and checked.

Each module imports only those above it in this list.
"""
