"""How much work a test does in each tier.

The README's quick command (`python -m pytest -q`) loads the hypothesis profile "quick": every
property test runs its smoke sample, always the same examples (derandomized, so a quick run never
passes or fails by luck). `.ci/run`'s soak step loads "thorough": ten times the examples, drawn
afresh each run. A property test without ``sized`` runs the profile's 50 (500 under thorough); a
test states another quick sample with ``sized``: a cheap engine property more, a test that runs
several commands per example a handful.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from pytest import ParameterSet

QUICK = 50  # the quick profile's max_examples (conftest.py); thorough has ten times as many


def sized(quick: int) -> settings:
    """Settings for a property test running ``quick`` examples in the quick suite and the same
    share of any other profile (ten times as many under thorough); no deadline, no health check
    about slow examples or a fixture shared by the examples (each example makes its own files)."""
    return settings(max_examples=max(1, quick * settings.default.max_examples // QUICK), deadline=None,
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
