"""Issue #24, the Coulomb-foot study's candidate 2 (gaittwin.bolt.paper.studies.bolt_coulomb_foot docstring): the hook's impasse
stop, checked on Painleve's rod -- a slender rod (mass 1 kg, length 1 m, 60 deg to the floor) whose small sphere
"foot" slides on a frictionless plastic contact (damper only, as BOLT's `robot/foot=plastic`), mu 2.  Sliding foot
first (top trailing), the friction presses the foot in: a_n = F_n/m (1 + 3 cos^2 - 3 mu sin cos) < 0, no
consistent sliding force (Painleve).  The other way it is consistent.  One step each, well under a second."""
import math

import mujoco
import numpy as np
import pytest

from gaittwin.bolt.paper.studies.bolt_coulomb_hook import DEN_MIN, PROBE, CoulombFoot

MU, THETA, L, R, DT = 2.0, math.radians(60.0), 0.5, 0.005, 2.5e-5
ROD = f"""
<mujoco>
  <option timestep="{DT}" integrator="implicitfast"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" condim="1"/>
    <body name="rod" pos="{L * math.cos(THETA)} 0 {L * math.sin(THETA) + R - 1e-5}">
      <joint name="x" type="slide" axis="1 0 0"/>
      <joint name="z" type="slide" axis="0 0 1"/>
      <joint name="pitch" type="hinge" axis="0 1 0"/>
      <inertial pos="0 0 0" mass="1" diaginertia="{L * L / 3} {L * L / 3} 1e-6"/>
      <geom name="foot" type="sphere" size="{R}" pos="{-L * math.cos(THETA)} 0 {-L * math.sin(THETA)}" mass="0"
            condim="1" solref="0 -5000" solimp="0.99 0.999 0.001"/>
    </body>
  </worldbody>
</mujoco>
"""


def rod(vx: float):
    """The rod's model and data, sliding at vx (m/s) with its foot touching the floor (10 um deep)."""
    m = mujoco.MjModel.from_xml_string(ROD)
    d = mujoco.MjData(m)
    d.qvel[0] = vx
    mujoco.mj_forward(m, d)
    return m, d


def slip(hook, m, d) -> tuple:
    """(slip speed, MuJoCo's normal force) at the current state with the current xfrc_applied."""
    mujoco.mj_forward(m, d)
    i, fn = hook.contact(m, d)
    assert i is not None
    c = d.contact[i]
    v = hook.jacobian(m, d, c.pos.copy()) @ d.qvel
    n = c.frame[:3]
    return float(np.linalg.norm(v - (v @ n) * n)), fn


def test_painleve_state_is_an_impasse_and_one_step_stops_the_slip():
    """Stated before the runs: the constructed state is an impasse (1 - b <= DEN_MIN); after one step the slip is
    below 2 % of the slip before, the contact holds (F_n > 0), |F_t| <= f_max, and MuJoCo's normal force under the
    stop force equals the hook's a + k_n f (1e-6 relative).  The lag law at the same state has no consistent F_n."""
    m, d = rod(-1.0)
    lag = CoulombFoot(m, MU, 0.005, "lag")
    lag(m, d)
    assert lag.last == "lag" and lag.inconsistent == 1
    m, d = rod(-1.0)
    hook = CoulombFoot(m, MU, 0.005, "stop")
    fn, ft, s0 = hook(m, d)
    assert hook.last == "stop" and len(hook.stops) == 1 and s0 == pytest.approx(1.0, rel=1e-3)
    assert 0 < ft <= hook.f_max
    _, fn_mj = slip(hook, m, d)           # the forward pass with the stop force the step will see
    assert fn_mj == pytest.approx(fn, rel=1e-6)
    mujoco.mj_step(m, d)
    d.xfrc_applied[:] = 0
    s1, fn1 = slip(hook, m, d)
    assert s1 < 0.02 * s0 and fn1 > 0
    hook(m, d)                            # the next step records the slip after the stop
    assert hook.slip_after == [pytest.approx(s1, abs=1e-12)] and hook.last != "stop"


def test_consistent_sliding_gets_the_sliding_law():
    """The rod sliding the other way (top first): no impasse (1 - b > DEN_MIN); the friction is the sliding law's
    |u| F_n with F_n = a / (1 - b), and MuJoCo's normal force under it equals that F_n (1e-6 relative)."""
    m, d = rod(+1.0)
    hook = CoulombFoot(m, MU, 0.005, "stop")
    fn, ft, s0 = hook(m, d)
    assert hook.last == "slide" and not hook.stops and hook.inconsistent == 0
    u = MU * s0 / math.hypot(s0, 0.005)
    assert ft == pytest.approx(u * fn, rel=1e-9)
    _, fn_mj = slip(hook, m, d)
    assert fn_mj == pytest.approx(fn, rel=1e-6)
    assert PROBE < 1 and 0 < DEN_MIN < 1


def test_dt_rule_on_the_measured_ladder_and_nan():
    """The study's dt rule (2 % of the paper speed, 0.01 duty, at every period) reapplied to its measured table:
    2.5e-5 -> 1.25e-5 fails at 0.4 s (duty +0.025), 1.25e-5 -> 6.25e-6 holds at all six; a NaN or a flagged run
    fails it."""
    from gaittwin.bolt.paper.studies import bolt_coulomb_foot as study
    ref = study.reference(study.REFERENCE)
    periods = (0.6, 0.5, 0.4, 0.3, 0.25, 0.2)
    cells = lambda rows: [(v, d, 1.0, False) for v, d in rows]   # noqa: E731
    fine = cells([(0.535, 0.4393), (0.728, 0.4343), (0.832, 0.2429), (0.960, 0.0799), (1.121, 0.0799),
                  (1.347, 0.0815)])
    finer = cells([(0.535, 0.4393), (0.728, 0.4343), (0.827, 0.2496), (0.947, 0.0799), (1.103, 0.0799),
                   (1.324, 0.0782)])
    assert study.within(fine, finer, ref, periods)
    assert not study.within(cells([(0.833, 0.2180)]), cells([(0.832, 0.2429)]), ref, (0.4,))
    assert not study.within(cells([(0.832, 0.2429)]), cells([(math.nan, 0.2496)]), ref, (0.4,))
    assert not study.within(cells([(0.832, 0.2429)]), [(0.827, 0.2496, 1.0, True)], ref, (0.4,))
