"""The functions of the Array API standard, by chapter of the standard.

Each chapter module lists ``FUNCTIONS`` (name -> a function taking the
namespace first: the ones whose dtype the policy decides, or that need the
namespace) and ``DELEGATED`` (names taken from ``array_api_compat.<backend>``
as they are, results wrapped).  :mod:`promo_ns._namespace` assembles them.
"""
