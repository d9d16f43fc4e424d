"""Conformance: array-api-tests runner and policy-vs-framework checkers."""
