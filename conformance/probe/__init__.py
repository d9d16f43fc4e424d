"""The generated probe: every public function and operator form of promo_ns, against each framework.

Layout
------
``_space.py``, ``_model.py``, ``_functions.py``
    The case model (``_model``: tokens, values, :class:`Case`; ``_functions``: the kinds beyond
    the element-wise ones) and the generator (imports only :mod:`promo_ns._ops`): each
    public name has a *kind*, each kind makes its cases over every dtype x role
    (n-d, 0-d, Python bool/int/float/complex, NumPy scalar for ``numpy``), value
    classes ``one`` and ``edge``, arities 1-4 and ``dtype=`` arguments.
``_driver.py``
    The runner protocol (:class:`~conformance.probe._driver.Adapter`), the
    generic spellings (operators, in-place, setitem), the observation strings
    and the compressed store ``tests/reference/probe-<policy>.json.gz``.  Imports
    NumPy and ``_space`` only: it runs in any interpreter.
``torch.py``, ``numpy.py``, ``array_api_strict.py``
    One framework's spelling table each (``python -m conformance.probe.torch``
    writes ``probe-pytorch.json.gz``, ...).
``promo.py``
    promo_ns under a policy on a backend, as one more adapter.
``_compare.py``, ``_known.py``, ``_report.py``
    Observations compared (framework agreement, cross-backend agreement with a
    stated ulp bound), the one table of known cross-backend differences, and the
    page ``docs/conformance/probe.md`` (``python -m conformance.probe POLICY ...``).

Adding a framework (Paddle, TensorFlow)
---------------------------------------
1. In ``conformance/probe/<framework>.py`` write a class with the methods of
   :class:`conformance.probe._driver.Adapter`: ``array`` (a native array of a
   canonical dtype from nested Python lists), ``dtype``, ``scalar`` (raise
   ``Absent`` unless the framework has NumPy-like scalars), ``function(case)``
   (the native call of ``case.op`` taking the standard's positional arguments
   and keywords ``dtype=``/``axes=``/``n=``; raise ``_driver.Absent`` where the
   framework has none), ``method(case)`` (``method``: the second spelling --
   Paddle's ``Tensor.add``, TF's ``tf.experimental.numpy.add``; ``method_``:
   the in-place method ``Tensor.add_``), ``copy``, ``to_numpy`` (canonical
   dtype name and a NumPy array; bfloat16 as float32), ``dtype_name``,
   ``classify`` (``"refused"`` for the framework's dtype decision,
   ``"error: <Class>"`` for value errors, ``"unsupported: <reason>"`` for a
   missing kernel) and ``fallback`` (re-raise unless the framework can decide
   the dtype without its kernel).  Set ``policy`` to the policy it measures.
2. Import nothing of promo_ns beyond ``conformance.probe._space`` and
   ``_driver``: Paddle and TensorFlow run in their own interpreters
   (``PYTHONPATH=<repo> /tmp/pvenv/bin/python -m conformance.probe.paddle``).
3. ``main()`` calls ``_driver.write(Adapter(), "python -m conformance.probe.<framework>")``.
4. Add the module to :data:`conformance.probe._compare.FRAMEWORKS`; then
   ``python -m conformance.probe <policy>`` reports it and ``tests/test_probe.py``
   ratchets its agreement.
"""
