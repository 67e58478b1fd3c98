"""One point's run, shared by the C batch runner (envs/core/engines/batch.py) and the MuJoCo Warp runner
(envs/core/engines/warp_batch.py): the record of a finished point (`Run`), the slot a runner fills while
it steps (`Slot`), which steps are sampled, how samples and cycle boundaries are taken (early stop
when steady), how a slot becomes a `Run`, and which models may share one batch (`layout`)."""
from __future__ import annotations

import dataclasses

import mujoco
import numpy as np

from ..model import metrics
from ..model.robot import Robot


@dataclasses.dataclass
class Run:
    """Recorded samples of one point (samples_per_cycle per cycle, plus t=0)."""

    robot: Robot
    model: mujoco.MjModel
    t: np.ndarray                 # (samples,)
    sensordata: np.ndarray        # (samples, nsensordata), sensors of the state at t
    cycle_values: np.ndarray      # (cycles,) per-cycle change of robot.progress
    steady: metrics.SteadyState | None
    error: str | None = None          # the simulation failed (MuJoCo error or warning, NaN): no metrics
    aux: np.ndarray | None = None  # (samples, robot.n_aux): maxima of a closed-loop robot's feedback values
    #                                since the previous sample (every step counted once)
    max_penetration: float = 0.0      # m, deepest contact penetration over every step run
    max_loop_gap: float | None = None  # m, largest loop-closure gap over every step (robots with loops)
    unhealthy: str | None = None      # finished, but over the robot's health limits
    engine: str = "mujoco"            # what stepped it: mujoco (the C engine) or warp (MuJoCo Warp)
    work: np.ndarray | None = None    # (samples,) J: positive actuator work since t = 0, integrated every
    #                                   step (envs/core/model/energy.py); None where only samples were seen (warp)

    @property
    def problem(self) -> str | None:
        """What makes this run not a valid result (the results row's `error`), or None."""
        return self.error or self.unhealthy

    def sensor(self, name: str) -> np.ndarray:
        return self.robot.sensor(self.sensordata, self.model, name)

    @property
    def cycles(self) -> int:
        return len(self.cycle_values)


@dataclasses.dataclass
class Slot:
    index: int                    # point index
    robot: Robot
    model: mujoco.MjModel
    step: int = 0                 # global steps done
    samples: list = dataclasses.field(default_factory=list)   # blocks (k, columns) of samples, in order
    nsamples: int = 0             # samples taken (rows over the blocks)
    boundary: list = dataclasses.field(default_factory=list)  # progress at t = kT
    done: bool = False
    steady: metrics.SteadyState | None = None
    naux: int = 0                 # trailing columns of each sample that are feedback values, not sensors
    max_penetration: float = 0.0
    max_loop_gap: float = 0.0
    work: float = 0.0             # J, positive actuator work over every step so far (envs/core/model/energy.py)
    work_samples: list = dataclasses.field(default_factory=list)   # the cumulative work at each sample


def layout(m: mujoco.MjModel) -> tuple:
    """What must agree for models to share one Batch (the sizes MjData holds)."""
    return (m.nq, m.nv, m.nu, m.na, m.nbody, m.njnt, m.ngeom, m.nsite, m.ncam, m.nlight, m.nsensor,
            m.nsensordata, m.neq, m.ntendon, m.nwrap, m.nmocap, m.nuserdata, m.nplugin, m.nflex, m.nmesh)


def by_layout(models) -> list[list[int]]:
    """Point indices grouped by `layout`, in the order first seen (the points of a group may share one batch)."""
    by: dict = {}
    for i, m in enumerate(models):
        by.setdefault(layout(m), []).append(i)
    return list(by.values())


def sampled_steps(s: Slot, n: int, cycles: int) -> range:
    """The global steps of the samples among the next n steps of slot s (none past the last cycle)."""
    stride = s.robot.steps_per_cycle // s.robot.samples_per_cycle
    first = -(-s.step // stride) * stride            # first sampled global step in this chunk
    return range(first, min(s.step + n - 1, cycles * s.robot.steps_per_cycle) + 1, stride)


def take_samples(s: Slot, steps, rows, cycles, min_cycles, stop_when_steady, steady_kw) -> int | None:
    """Append the sampled rows (global steps `steps`, ascending) to slot s; at each cycle boundary
    record the progress and decide whether the run is done.  Returns the global step the run
    ended at (s.done), or None."""
    r = s.robot
    steps = np.asarray(steps, dtype=np.int64)
    block = np.array(rows if isinstance(rows, np.ndarray) else list(rows), dtype=float)[:len(steps)]
    steps = steps[:len(block)]
    prev = 0       # whole blocks between cycle boundaries: one copy a chunk, no per-sample Python work
    for i in np.flatnonzero(steps % r.steps_per_cycle == 0):
        s.samples.append(block[prev:i + 1])
        s.nsamples += i + 1 - prev
        prev = i + 1
        s.boundary.append(float(r.progress(block[i][None], s.model)[0]))
        kcyc = len(s.boundary) - 1
        if kcyc >= cycles:
            s.done = True
            return int(steps[i])
        if stop_when_steady and kcyc >= min_cycles:
            st = metrics.steady_state(metrics.per_cycle(s.boundary), **steady_kw)
            if st.steady:
                s.done = True
                return int(steps[i])
    if prev < len(block):
        s.samples.append(block[prev:])
        s.nsamples += len(block) - prev
    return None


def finish(s: Slot, err, steady_kw, engine: str = "mujoco") -> Run:
    r = s.robot
    data = np.concatenate(s.samples) if s.samples else np.zeros((0, s.model.nsensordata + s.naux))
    t = np.arange(len(data)) * (r.steps_per_cycle // r.samples_per_cycle) * r.timestep
    vals = metrics.per_cycle(s.boundary)
    st = metrics.steady_state(vals, **steady_kw) if len(vals) else None
    nsens = s.model.nsensordata
    aux = data[:, nsens:] if s.naux else None
    gap = s.max_loop_gap if r.loops else None
    run = Run(r, s.model, t, data[:, :nsens], vals, st, err, aux, max_penetration=s.max_penetration,
              max_loop_gap=gap, engine=engine,
              work=np.array(s.work_samples) if len(s.work_samples) == len(data) else None)
    if err is None:
        run.unhealthy = r.health_error(s.max_penetration, gap)
    return run
