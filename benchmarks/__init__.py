"""Benchmarks of promo_ns against native NumPy, torch and CuPy and the Array API peers.

Run them with ``python -m benchmarks``.
"""
