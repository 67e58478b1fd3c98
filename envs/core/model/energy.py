"""Energy of every robot: actuator mechanical power, work per cycle, mean power, cost of transport.

One shared mechanism.  Every compiled model gets, for each actuator, an actuator-force and an
actuator-velocity sensor (`add_sensors`, called where the penetration sensor is added), so the
power is read from recorded sensor data like every other metric, on every path (C batch runner,
closed-loop runner, MuJoCo Warp, dm_control).  A robot opts in by declaring `METRICS` in its
`metrics`; `Robot` then adds them to what its `summarize()` returns (envs/core/model/robot.py).

Definitions (SI):
  power P(t)         sum over transmissions (actuators driving the same joint/tendon/site are
                     summed first: a position servo and its velocity feed-forward are one motor)
                     of max(0, sum_a f_a v_a): the positive mechanical power the motors deliver
                     (no regeneration credited), W.  f_a: actuator force (actuatorfrc),
                     v_a: actuator velocity (actuator_velocity), so gears cancel.
  work_per_cycle     integral of P over the measuring window / cycles in it, J (trapezoid over
                     the recorded samples, samples_per_cycle a cycle).
  mean_power         work_per_cycle / T, W.
  cost_of_transport  mean_power / (m g |v|), dimensionless; m: the model's total mass (every
                     body), g: |gravity|, v: the progress signal's change over the window / its
                     duration (the robot's own speed along its direction of travel).
  speed floor        cost_of_transport is reported only when the robot advances at least
                     FLOOR_SIZE_PER_CYCLE (1 %) of its own size per cycle: |v| T >= 0.01 L, L the
                     largest side of the box around the moving bodies' geoms (bounding spheres) at
                     the model's reference pose (`size`).  Below it the robot steps in place and the
                     ratio measures the noise of a near-zero displacement (it reaches 10^4); the
                     value is then empty (None) and cost_of_transport_note says why (empty when
                     reported).  Work and power are reported at any speed.
The measuring window is the one the steady per-cycle value uses (envs/core/metrics.steady_state):
the last `period` cycles of a steady run, else the last min(cycles, 4).
Integration: the C batch runner (and its closed-loop path) sees every step's sensors and folds
P dt of every step into the run's cumulative work (`fold`, `Run.work`), so the work is the
per-step integral of the sampled-data power (the step's sensors are of the state it starts from).
Where only the samples are seen (engine=warp) it is the trapezoid over the samples: measured
against the per-step integral at the defaults (3 cycles): crawler +0.04 %, BOLT -0.3 %,
MinIAQ-II -5.5 % (its crank torque chatters between samples).
"""
from __future__ import annotations

import mujoco
import numpy as np

METRICS = ("work_per_cycle", "mean_power", "cost_of_transport", "cost_of_transport_note")
FLOOR_SIZE_PER_CYCLE = 0.01    # the speed floor: a cycle's advance as a fraction of the robot's size
FRC, VEL = "gaittwin_actfrc_", "gaittwin_actvel_"   # sensor name prefixes + actuator index
N_AVG = 4            # cycles averaged when not steady (metrics.steady_state's default n_avg)


def add_sensors(spec: mujoco.MjSpec) -> None:
    """An actuator-force and an actuator-velocity sensor per actuator (named by index; an unnamed
    actuator is given a name).  Sensors do not change the physics."""
    for i, a in enumerate(spec.actuators):
        if not a.name:
            a.name = f"gaittwin_actuator_{i}"
        spec.add_sensor(name=f"{FRC}{i}", type=mujoco.mjtSensor.mjSENS_ACTUATORFRC,
                        objtype=mujoco.mjtObj.mjOBJ_ACTUATOR, objname=a.name)
        spec.add_sensor(name=f"{VEL}{i}", type=mujoco.mjtSensor.mjSENS_ACTUATORVEL,
                        objtype=mujoco.mjtObj.mjOBJ_ACTUATOR, objname=a.name)


def _column(sensordata, model, name):
    s = model.sensor(name)
    return np.asarray(sensordata)[..., s.adr[0]]


def actuator_power(sensordata, model: mujoco.MjModel) -> np.ndarray:
    """(samples, nu) power f_a v_a of each actuator (W, signed)."""
    return np.stack([_column(sensordata, model, f"{FRC}{i}") * _column(sensordata, model, f"{VEL}{i}")
                     for i in range(model.nu)], axis=-1) if model.nu else np.zeros(np.shape(sensordata)[:-1] + (0,))


def power(sensordata, model: mujoco.MjModel) -> np.ndarray:
    """(samples,) positive mechanical power of the motors (W): per transmission max(0, sum f v)."""
    pa = actuator_power(sensordata, model)
    groups: dict = {}
    for i in range(model.nu):
        groups.setdefault((int(model.actuator_trntype[i]), int(model.actuator_trnid[i, 0])), []).append(i)
    return sum((np.maximum(0.0, pa[..., idx].sum(axis=-1)) for idx in groups.values()),
               np.zeros(pa.shape[:-1]))


def fold(slot, rec, steps) -> None:
    """Add one chunk's steps to a runner slot's cumulative work.  rec[i]: the sensors of the state
    after slot.step + i steps (the state step slot.step + i starts from); `steps`: the global steps
    sampled in this chunk, whose cumulative work (all steps before them) is recorded."""
    p = power(rec, slot.model) * slot.robot.timestep
    cum = np.cumsum(np.concatenate([[slot.work], p]))     # one running sum, step by step: chunking cannot change it
    slot.work_samples.extend(cum[np.asarray(steps, dtype=np.int64) - slot.step].tolist())
    slot.work = float(cum[-1])


def window_cycles(run) -> int:
    """Cycles in the measuring window (see the module docstring); 0 without a full cycle."""
    n = len(run.cycle_values)
    st = run.steady
    k = st.period if st is not None and st.steady and st.period else min(n, N_AVG)
    return int(min(k, n))


def total_mass(model: mujoco.MjModel) -> float:
    return float(np.sum(model.body_mass))


def size(model: mujoco.MjModel) -> float:
    """L, m: the largest side of the axis-aligned box around the geoms (bounding spheres) of every
    body but the world, at the reference pose qpos0."""
    d = mujoco.MjData(model)
    mujoco.mj_kinematics(model, d)
    g = model.geom_bodyid > 0
    if not g.any():
        return 0.0
    r = model.geom_rbound[g, None]
    return float(np.max((d.geom_xpos[g] + r).max(axis=0) - (d.geom_xpos[g] - r).min(axis=0)))


def speed_floor(model: mujoco.MjModel, period: float) -> float:
    """The speed below which cost_of_transport is not reported (m/s): FLOOR_SIZE_PER_CYCLE L / T."""
    return FLOOR_SIZE_PER_CYCLE * size(model) / period


def cost_of_transport(mean_power: float, v: float, model: mujoco.MjModel, period: float) -> tuple:
    """(cost_of_transport, note): (mean_power / (m g |v|), "") at or above the speed floor, else (None,
    why); (NaN, why) when there is no weight to carry."""
    floor = speed_floor(model, period)
    if not abs(v) >= floor:
        return None, (f"speed {abs(v):.3g} m/s below the floor {floor:.3g} m/s ({FLOOR_SIZE_PER_CYCLE:.0%} "
                      f"of the size {floor * period / FLOOR_SIZE_PER_CYCLE:.3g} m per cycle)")
    denom = total_mass(model) * float(np.linalg.norm(model.opt.gravity)) * abs(v)
    return (mean_power / denom, "") if denom > 0 else (float("nan"), "no weight (zero mass or gravity)")


def metrics(robot, run) -> dict:
    """work_per_cycle, mean_power, cost_of_transport(_note) of a finished run (NaN without a full cycle)."""
    k = window_cycles(run)
    nan = dict(dict.fromkeys(METRICS, float("nan")), cost_of_transport_note="no full cycle")
    spc = robot.samples_per_cycle
    if k < 1 or len(run.t) < k * spc + 1:
        return nan
    n = len(run.cycle_values)
    a, b = (n - k) * spc, n * spc                   # samples at the window's cycle boundaries
    if getattr(run, "work", None) is not None:          # integrated every step
        work = float(run.work[b] - run.work[a]) / k
    else:                                               # the trapezoid over the samples
        p = power(run.sensordata[a:b + 1], run.model)
        work = float(np.sum(0.5 * (p[1:] + p[:-1]) * np.diff(run.t[a:b + 1]))) / k
    T = robot.period
    mean_power = work / T
    v = float(np.sum(run.cycle_values[n - k:])) / (k * T)
    cot, note = cost_of_transport(mean_power, v, run.model, T)
    return dict(work_per_cycle=work, mean_power=mean_power, cost_of_transport=cot, cost_of_transport_note=note)
