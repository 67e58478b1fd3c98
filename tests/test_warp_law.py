"""The prescribed inputs evaluated on the device (envs/core/engines/warp_law.py, `Robot.device_law`):
the law is the robot's `controls`, the kernel rounds it to float32 as the host path does, and a
run driven by the device law is the run driven by host-computed controls, bit for bit (Warp's CPU
device).  The host-side tests need no warp; the others skip without the extra (.[gpu])."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from gaittwin.crawler.robot import Crawler
from gaittwin.miniaq.robot import MiniAQ

needs_warp = pytest.mark.skipif(importlib.util.find_spec("mujoco_warp") is None,
                                reason="mujoco_warp not installed (pip install -e \".[gpu]\" -c constraints.txt)")
ROBOTS = [Crawler(omega=8.0, psi_deg=60.0, alpha=0.5, upsilon_deg=30.0), Crawler(omega=0.3),
          MiniAQ(f=3.0), MiniAQ(direction_right=-1)]


def _steps(r):
    n = r.steps_per_cycle
    return np.array([0, 1, 7, 999, n // 4, n // 3 + 1, 10 * n - 1, 100 * n + n // 2])


@pytest.mark.parametrize("r", ROBOTS, ids=lambda r: type(r).__name__)
def test_device_law_is_the_robots_controls(r):
    """Tolerance first: float64 round-off, 1e-12 x (1 + |ctrl|) (the law is the same formula reordered)."""
    law, t = r.device_law(), _steps(r) * r.timestep
    c = r.controls(t)
    assert np.all(np.abs(law(t) - c) <= 1e-12 * (1 + np.abs(c)))
    assert np.ptp(c, axis=0).max() > 0.1                      # the inputs really move


def test_miniaq_with_a_phase_wander_keeps_its_controls_on_the_host():
    assert MiniAQ(phase_wander_deg=5.0).device_law() is None


@needs_warp
@pytest.mark.parametrize("r", ROBOTS, ids=lambda r: type(r).__name__)
def test_kernel_rounds_the_law_to_float32_as_the_host_path_does(r):
    """Tolerance first: 1 float32 ulp of the control (float64 sin/cos may differ in the last bit)."""
    from gaittwin.core.engines import warp_engine, warp_law
    warp_engine.device("cpu")
    steps = _steps(r)
    host = r.controls(steps * r.timestep).astype(np.float32)
    dev = warp_law.evaluate(r.device_law(), r.timestep, steps, "cpu")
    assert np.all(np.abs(dev - host) <= np.spacing(np.abs(host)))


@needs_warp
@pytest.mark.parametrize("point", [pytest.param((Crawler, dict(omega=16.0, psi_deg=45.0)), id="crawler"),
                                   pytest.param((MiniAQ, dict(f=4.0)), id="miniaq", marks=pytest.mark.slow)])
def test_a_device_law_run_is_the_host_control_run(point, monkeypatch):
    """engine=warp with the inputs on the device against the same worlds with controls from the
    host (device_law None): the same sampled sensors and health, bit for bit on Warp's CPU device."""
    from gaittwin.core.engines import batch
    cls, p = point
    kw = dict(cycles=1, stop_when_steady=False, chunk=500, engine="warp", device="cpu", nworld=2)
    pts = [p, dict(p, mu_d=0.5) if cls is MiniAQ else dict(p, mu=0.3)]
    dev = batch.run_points(pts, cls, **kw)
    monkeypatch.setattr(cls, "device_law", lambda self: None)
    host = batch.run_points(pts, cls, **kw)
    for a, b in zip(dev, host):
        assert a.problem is None and a.engine == "warp"
        np.testing.assert_array_equal(a.sensordata, b.sensordata)
        assert (a.max_penetration, a.max_loop_gap) == (b.max_penetration, b.max_loop_gap)
