"""Each compiled kernel agrees with its pure-Python twin (yarl-style: both implementations)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from regle.runtime import KERNELS
from regle.runtime import kernels as pure

try:
    from regle.runtime import _kernels as compiled
except ImportError:  # pragma: no cover - CI requires the build (see .ci/run)
    compiled = None

IMPLS = [pytest.param(pure, id="pure"),
         pytest.param(compiled, id="compiled", marks=pytest.mark.skipif(compiled is None, reason="not built"))]
small = st.lists(st.integers(0, 9), max_size=12)


@pytest.mark.parametrize("k", IMPLS)
def test_distinct_pairs_hand_made(k):
    assert k.distinct_pairs([]) == []
    assert k.distinct_pairs([3]) == []
    assert k.distinct_pairs([1, 2, 1]) == [(1, 2), (1, 1)]
    assert k.distinct_pairs([4, 4]) == [(4, 4)]


@pytest.mark.parametrize("k", IMPLS)
def test_contains_hand_made(k):
    assert k.contains_pair([2, 5], 2, 5) and k.contains_pair([5, 2], 2, 5)
    assert not k.contains_pair([7], 2, 5) and not k.contains_pair([3, 4], 2, 5)
    assert not k.contains_pair([4], 4, 4) and k.contains_pair([4, 1, 4], 4, 4)
    assert k.contains_all([1, 2, 2], [2, 2]) and not k.contains_all([1, 2], [2, 2])
    assert k.contains_all([], [])


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300)
@given(small)
def test_distinct_pairs_twins_agree(values):
    assert compiled.distinct_pairs(values) == pure.distinct_pairs(values)
    expected = sorted({tuple(sorted((values[i], values[j]))) for i in range(len(values))
                       for j in range(i + 1, len(values))})
    assert sorted(pure.distinct_pairs(values)) == expected


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300)
@given(small, small)
def test_contains_twins_agree(values, wanted):
    assert compiled.contains_all(values, wanted) == pure.contains_all(values, wanted)
    if len(wanted) >= 2:
        a, b = wanted[:2]
        assert compiled.contains_pair(values, a, b) == pure.contains_pair(values, a, b) == \
            pure.contains_all(values, [a, b])


@pytest.mark.skipif(compiled is None, reason="compiled kernels not built")
@settings(max_examples=300)
@given(st.lists(st.integers(), max_size=60), st.integers(0, 2**64 - 1))
def test_shuffle_twins_agree(items, state):
    a, b = list(items), list(items)
    assert compiled.shuffle(a, state) == pure.shuffle(b, state)
    assert a == b and sorted(a) == sorted(items)


def test_kernels_mode_is_reported():
    assert KERNELS.startswith(("compiled", "pure"))
