"""FeedbackCrawler (envs/crawler/paper/feedback_robot.py): the crawler under eq. 19 as a closed_loop robot
of the batch runner, the C engine's side of engine=warp's eq. 19 kernel (tests/test_warp_feedback.py)."""
from __future__ import annotations

import numpy as np

from gaittwin.core.engines import batch
from gaittwin.crawler.paper.feedback import mujoco_feedback_run
from gaittwin.crawler.paper.feedback_robot import FeedbackCrawler
from gaittwin.crawler.robot import Crawler


def test_feedback_crawler_is_the_feedback_experiments_physics_bit_for_bit():
    """One cycle at omega 16 on the C batch runner against mujoco_feedback_run (the experiment's C
    path: the same FeedbackCrawler.feedback, stepped by the Stepper): the joint angles are equal bit
    for bit at every sample (its sample k holds qpos after k steps, the batch runner's sample k the
    sensors of the state after k steps); gains None is the open loop, which differs."""
    r = FeedbackCrawler(omega=16.0)
    run = batch.run_points([r], cycles=1, stop_when_steady=False, chunk=500)[0]
    ref = mujoco_feedback_run(Crawler(omega=16.0), {}, 1)     # the plain crawler + the law at its defaults
    q = np.stack([run.sensor(f"phi{i}")[:, 0] for i in (1, 2)], axis=1)
    assert len(ref["q"]) == len(q) - 1 == r.samples_per_cycle
    np.testing.assert_array_equal(q[1:], ref["q"])
    open_run = batch.run_points([FeedbackCrawler(None, omega=16.0)], cycles=1, stop_when_steady=False)[0]
    assert np.abs(open_run.sensor("phi1")[1:, 0] - ref["q"][:, 0]).max() > 1e-3


def test_experiment_default_gains_are_the_laws():
    """crawler_feedback's default gains (config, degrees) are FeedbackLaw's defaults, the ones a
    FeedbackCrawler without gains runs (tolerance: 1e-12 rad for the degree conversion)."""
    import inspect
    import math

    from gaittwin.crawler.config import Feedback
    from gaittwin.crawler.paper.hybrid_model import FeedbackLaw
    law = {k: v.default for k, v in inspect.signature(FeedbackLaw.__init__).parameters.items()
           if k in ("Kv", "Kp", "Kd", "phi_lim")}
    cfg = Feedback().feedback
    assert {k: cfg[k] for k in ("Kv", "Kp", "Kd")} == {k: law[k] for k in ("Kv", "Kp", "Kd")}
    assert np.allclose([math.radians(x) for x in cfg["phi_lim_deg"]], law["phi_lim"], rtol=0, atol=1e-12)
    fc = FeedbackCrawler(omega=16.0).law()[0]
    assert (fc.Kv[0, 0], fc.Kp[0, 0], fc.Kd[0, 0], fc.phi_lim) == (law["Kv"], law["Kp"], law["Kd"], law["phi_lim"])


def test_addresses_are_looked_up_once_per_model():
    """FeedbackCrawler.addresses: the same answer object for the same model (no name lookups per
    step), a fresh lookup for another model, equal there (its copy)."""
    import copy
    r = FeedbackCrawler(omega=16.0)
    m = r.model()
    a = r.addresses(m)
    assert r.addresses(m) is a
    m2 = copy.copy(m)
    b = r.addresses(m2)
    assert b is not a and b == a and r.addresses(m2) is b
    assert a == ([m.joint(n).qposadr[0] for n in ("root_x", "root_z", "theta", "phi1", "phi2")],
                 [m.joint(n).dofadr[0] for n in ("root_x", "root_z", "theta", "phi1", "phi2")],
                 [m.sensor(f"foot{i}_vel").adr[0] for i in (1, 2)])
