from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
# pytest --hypothesis-profile thorough: many more examples (the generated differential tests).
settings.register_profile("thorough", max_examples=5000, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
