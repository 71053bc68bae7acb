"""Line noise on the reader link during a scripted hand (issue #12 item 2), small size.

The real firmware under MicroPython on ptys, the real Pi runtime (transport,
interpreter, session, journal), 1% of the bytes on each link corrupted or dropped in
both directions. Before issue #12, 0 of 3 such hands finished. Now the hand ends as
the noise-free reference does, or with an alert the dealer must act on, never
silently wrong. The full size (20 hands, 100 convergence trials) is in
bench/link_drills.py.
"""

from __future__ import annotations

import pytest

from pokertable.bench.link_drills import convergence, noise_hands

pytestmark = pytest.mark.slow


def test_a_hand_under_one_percent_noise_ends_as_without_noise() -> None:
    figures = noise_hands(hands=1, noise=0.01, seed=5, stall_s=60)
    assert figures["bytes_corrupted_or_dropped"] > 0  # the noise really was on
    assert figures["silent_wrong"] == 0, figures["failures"]
    assert figures["same_as_without_noise"] + figures["alerted"] == 1


def test_view_converges_to_the_felt_after_the_noise_stops() -> None:
    figures = convergence(trials=3, noise=0.01, seed=4, stall_s=60)
    assert figures["converged"] == 3
