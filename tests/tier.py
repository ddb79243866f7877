"""How much work a test does in each tier.

The README's quick command (`python -m pytest -q`) loads the hypothesis profile "quick": every
property test runs its smoke sample, always the same examples (derandomized, so a quick run never
passes or fails by luck). `.ci/run`'s soak step loads "thorough", drawn afresh each run. A property
test without ``sized`` runs the profile's examples: 25 quick, 500 thorough. ``sized(n)`` states a
test's sample against a base of 50 (``BASE``): n/2 examples quick, 10n thorough; a cheap engine
property more, a test that runs several commands per example a handful.

A test over several seeds, languages, commands or shapes of one behaviour keeps the first of them
quick and the others under soak with ``some``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from pytest import ParameterSet

BASE = 50  # sized(n) is n examples of every BASE the profile runs: the quick profile runs 25, thorough 500


def sized(examples: int) -> settings:
    """Settings for a property test running ``examples`` for every ``BASE`` examples of the
    profile (half as many in the quick suite, ten times as many under thorough); no deadline, no
    health check about slow examples or a fixture shared by the examples (each example makes its
    own files)."""
    return settings(max_examples=max(1, examples * settings.default.max_examples // BASE), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])



def some(values, quick: int = 1, *, unpack: bool = False) -> list:
    """``values`` as a test's parameters: the first ``quick`` in the quick suite, every other one
    under soak (more seeds, languages, commands or shapes of one behaviour). With ``unpack`` each
    value is a tuple of several arguments; a ``pytest.param`` keeps its id and marks."""
    chosen = []
    for index, value in enumerate(values):
        marks = () if index < quick else (pytest.mark.soak,)
        if isinstance(value, ParameterSet):
            chosen.append(pytest.param(*value.values, id=value.id, marks=(*value.marks, *marks)))
        else:
            chosen.append(pytest.param(*(value if unpack else (value,)), marks=marks))
    return chosen
