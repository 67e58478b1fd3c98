"""engine=auto's split rule (envs/core/auto_split.py) and, on Warp's CPU device, a split run that
equals the pure runs point by point (skips without the extra .[gpu])."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from envs.core.auto_split import split


def test_split_gives_the_long_points_to_the_c_threads_where_that_shortens_the_wall_time():
    """Stated estimates, checked by hand: 1 point of 100k steps and 100 of 1k; warp at 1e6
    world-steps/s and 1 ms a batch step (the long point alone holds warp 100 s), the C runner
    1e4 steps/s: the long point to C (10 s) and the rest on warp (max(1 s, 0.1 s)) = 10 s."""
    steps = [1000] * 50 + [100_000] + [1000] * 50
    c, w, est = split(steps, 1, "cuda", rates=(1e6, 1e-3, 1e4))
    assert c == [50] and len(w) == 100 and est["est_cpu_s"] == pytest.approx(10.0)
    assert est["est_warp_s"] == pytest.approx(1.0)
    # a C runner 100 x slower: the long point stays on warp (100 s there against 1000 s on C)
    c, w, est = split(steps, 1, "cuda", rates=(1e6, 1e-3, 1e2))
    assert c == [] and len(w) == 101 and est["est_warp_s"] == pytest.approx(100.0)
    # equal step counts are never cut between the engines; a fast C runner takes everything
    c, w, _ = split([500] * 4, 1, "cuda", rates=(1e6, 1e-3, 1e9))
    assert (c, w) == ([0, 1, 2, 3], [])
    c, w, _ = split([500] * 4, 1, "cuda", rates=(1e9, 1e-9, 1e2))
    assert (c, w) == ([], [0, 1, 2, 3])


@pytest.mark.skipif(importlib.util.find_spec("mujoco_warp") is None, reason="mujoco_warp not installed")
def test_an_auto_run_is_the_pure_runs_point_by_point():
    """Three crawler points, rates that send the omega 8 point (4000 steps) to the C threads and the
    two omega 16 points (2000 steps) to warp: each run says its engine and its samples equal, bit for
    bit, the same point's run on that engine alone (the C runner; warp with the same two worlds)."""
    from envs.core import batch
    from envs.crawler.robot import Crawler
    pts = [dict(omega=16.0, mu=0.172), dict(omega=16.0, mu=0.398), dict(omega=8.0, mu=0.172)]
    kw = dict(cycles=1, stop_when_steady=False, chunk=1000, nthread=1)
    auto = batch.run_points(pts, Crawler, engine="auto", device="cpu", auto_rates=(1e9, 1e-3, 2000.0), **kw)
    assert [r.engine for r in auto] == ["warp", "warp", "mujoco"]
    c = batch.run_point(pts[2], Crawler, **kw)
    np.testing.assert_array_equal(auto[2].sensordata, c.sensordata)
    w = batch.run_points(pts[:2], Crawler, engine="warp", device="cpu", **kw)
    for a, b in zip(auto[:2], w):
        np.testing.assert_array_equal(a.sensordata, b.sensordata)
