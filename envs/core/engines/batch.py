"""Native batched rollouts shared by every robot and experiment.

`run_points` runs many simulation points on `mujoco.batch.Batch` (C++ thread
pool, bit-identical to a loop of mj_step): controls are precomputed per chunk
with numpy, sensor data are recorded natively, and Python touches the
simulation only once per chunk.  A pool of `nsim` slots is refilled as points
finish (longest first), so points of different durations waste little.
A single run is the same code with one point, so both paths agree exactly.
Robots with `closed_loop` (a per-step `feedback` hook, e.g. actuator limits that
depend on the measured state) are stepped point by point in a plain mj_step
loop with the same chunking, sampling, warning and health checks.

Every step of every point is also checked for health: its deepest contact penetration
(the contact-distance sensor every compiled model carries), its largest loop-closure gap
(the robot's declared `loops`), non-finite sensor values and MuJoCo warnings.  A MuJoCo
warning or a NaN fails the point (`Run.error`, no metrics); penetration or a loop gap over
the robot's declared limits (`Robot.max_penetration`, `Robot.max_loop_gap`) marks a finished
run unhealthy (`Run.unhealthy`; its metrics are kept but it is not a valid result).
The run record, the slots and the sampling are shared with the MuJoCo Warp runner
(envs/core/engines/runs.py); `engine="warp"` hands the points to it (envs/core/engines/warp_batch.py).
"""
from __future__ import annotations

import collections
import os

import mujoco
import numpy as np
from mujoco import batch as mjbatch

from ..model import energy
from .runs import Run, Slot, by_layout, finish, sampled_steps, take_samples  # noqa: F401  (batch.Run)
from ..model.robot import DEFAULT_MAX_STEPS, PENETRATION_SENSOR, WARNING_NAMES, Robot


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - non-Linux
        return os.cpu_count() or 1


def run_points(points, robot_cls=None, *, cycles: int = 10, min_cycles: int = 3,
               stop_when_steady: bool = False, steady_kw: dict | None = None,
               nthread: int | None = None, nsim: int | None = None,
               chunk: int = 2000, max_steps: int | None = DEFAULT_MAX_STEPS, on_result=None,
               progress=None, engine: str = "mujoco", device: str | None = None, nworld: int | None = None,
               auto_rates: tuple | None = None) -> list:
    """Simulate `points` (Robot instances, or dicts of config parameters of `robot_cls`).

    Every point is validated before anything is simulated, its step count included
    (StepBudgetError over `max_steps`; None: unbounded).  Each runs `cycles`
    periods, or stops early once steady if `stop_when_steady` (never before
    `min_cycles`).  on_result(i, run) is called as each point finishes (in
    finishing order); progress(n) is called with the number of points finished.
    Points whose models differ in structure (e.g. a snake's N) run in separate
    batches.  Returns the list of `Run`s in point order.
    engine=warp runs them on MuJoCo Warp instead (envs/core/engines/warp_engine.py; `device`: its Warp
    device, default cuda if usable else cpu; `nworld`: worlds per batch); nthread/nsim are unused there.
    engine=auto: the longest points on the C runner's threads, the rest on MuJoCo Warp, at once
    (envs/core/engines/auto_split.py: the split rule; auto_rates overrides its measured rates).
    """
    robots = [p if isinstance(p, Robot) else robot_cls(**p) for p in points]
    if not robots:
        return []
    check_run(robots, cycles=cycles, min_cycles=min_cycles, chunk=chunk, max_steps=max_steps)
    nthread = available_cores() if nthread is None else max(1, int(nthread))
    models = [r.model() for r in robots]
    results: list = [None] * len(robots)
    done = [0]

    def finished(i, run):
        results[i] = run
        done[0] += 1
        if on_result is not None:
            on_result(i, run)
        if progress is not None:
            progress(done[0])

    if engine == "warp":
        from . import warp_batch, warp_engine
        warp_engine.check(robots)
        warp_batch.run_points(robots, cycles=cycles, min_cycles=min_cycles, stop_when_steady=stop_when_steady,
                              steady_kw=steady_kw or {}, chunk=chunk, finished=finished, nworld=nworld, device=device)
        return results
    if engine == "auto":
        _run_auto(robots, finished, nthread=nthread, nsim=nsim, device=device, nworld=nworld, rates=auto_rates,
                  kw=dict(cycles=cycles, min_cycles=min_cycles, stop_when_steady=stop_when_steady,
                          steady_kw=steady_kw or {}, chunk=chunk))
        return results
    if engine != "mujoco":
        raise ValueError(f"batch.run_points: engine={engine!r}: one of 'mujoco', 'warp', 'auto'")
    for idx in by_layout(models):
        if robots[idx[0]].closed_loop:
            for i in sorted(idx, key=lambda i: -robots[i].steps_per_cycle * robots[i].period):
                _run_closed_loop(i, robots[i], models[i], finished, cycles=cycles, min_cycles=min_cycles,
                                 stop_when_steady=stop_when_steady, steady_kw=steady_kw or {}, chunk=chunk)
            continue
        _run_group(idx, robots, models, finished, cycles=cycles, min_cycles=min_cycles,
                   stop_when_steady=stop_when_steady, steady_kw=steady_kw or {}, nthread=nthread,
                   nsim=min(len(idx), nsim or 4 * nthread), chunk=chunk)
    return results


def _run_auto(robots, finished, *, nthread, nsim, device, nworld, rates, kw) -> None:
    """engine=auto: split the points (auto_split.split), the C share in a thread, warp's here; each
    share through run_points with its engine (the same checks and runners as a pure run)."""
    import threading

    from . import auto_split, warp_engine
    dev = warp_engine.device(device)
    c_idx, w_idx, _ = auto_split.split([kw["cycles"] * r.steps_per_cycle for r in robots], nthread, dev, rates)
    warp_engine.check([robots[i] for i in w_idx])        # refused before either share starts
    lock, errors = threading.Lock(), []

    def to(idx):
        def done(j, run):
            with lock:
                finished(idx[j], run)
        return done

    def c_side():
        try:
            run_points([robots[i] for i in c_idx], on_result=to(c_idx), nthread=nthread, nsim=nsim, max_steps=None,
                       **kw)
        except BaseException as e:      # noqa: BLE001  re-raised in the caller's thread
            errors.append(e)

    t = threading.Thread(target=c_side, name="auto-c-runner")
    t.start()
    try:
        if w_idx:
            run_points([robots[i] for i in w_idx], on_result=to(w_idx), engine="warp", device=dev, nworld=nworld,
                       max_steps=None, **kw)
    finally:
        t.join()
    if errors:
        raise errors[0]


def check_run(robots, *, cycles, min_cycles=1, chunk=1, max_steps=DEFAULT_MAX_STEPS) -> None:
    """Run settings and every point's step count, before anything is simulated (ConfigError)."""
    from ..model.errors import ConfigError
    for name, v, lo in (("run.cycles", cycles, 1), ("run.min_cycles", min_cycles, 1), ("run.chunk", chunk, 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
            raise ConfigError(name, v, f"an integer >= {lo}")
    if max_steps is not None:
        if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)) or max_steps < 1:
            raise ConfigError("run.max_steps", max_steps, "an integer >= 1 (steps per point)")
        for r in robots:
            r.check_steps(cycles, max_steps)


def _run_group(idx, robots, models, finished, *, cycles, min_cycles, stop_when_steady, steady_kw,
               nthread, nsim, chunk):
    # longest first: the tail of the run is short points filling freed slots
    pending = collections.deque(sorted(idx, key=lambda i: -robots[i].steps_per_cycle * robots[i].period))
    b = mjbatch.Batch(models[pending[0]], nsim, nthread)
    slots: list = [None] * nsim
    slot_models = [models[pending[0]]] * nsim
    nu, nsens = models[pending[0]].nu, models[pending[0]].nsensordata

    def assign(k: int) -> None:
        if not pending:
            slots[k] = None
            return
        i = pending.popleft()
        r, m = robots[i], models[i]
        slots[k] = Slot(i, r, m)
        slot_models[k] = m
        b.state[k] = r.initial_state(m)
        b.warning[k] = 0

    for k in range(nsim):
        assign(k)
    b.set_models(list(slot_models))
    while any(s is not None for s in slots):
        ids = np.array([k for k, s in enumerate(slots) if s is not None], dtype=np.int32)
        ctrl = np.empty((len(ids), chunk, nu))
        for j, k in enumerate(ids):
            s = slots[k]
            ctrl[j] = s.robot.controls((s.step + np.arange(chunk)) * s.robot.timestep)
        rec = np.empty((len(ids), chunk, nsens))
        failed = {}
        try:
            b.rollout(chunk, ctrl, record=("sensordata",), ids=ids, out={"sensordata": rec})
        except mjbatch.SimulationError as e:  # those sims kept their state; the others ran
            failed = {int(k): b.error(int(k)) for k in e.ids}
        changed = False
        for j, k in enumerate(ids):
            s = slots[k]
            err = failed.get(int(k))
            if err is None:
                err = _warning(s, b.warning[k, :, 1], chunk)
            if err is None:
                used = _consume(s, rec[j], cycles, min_cycles, stop_when_steady, steady_kw)
                err = _health(s, rec[j, :used], chunk)
            if err is not None or s.done:
                finished(s.index, finish(s, err, steady_kw))
                assign(k)
                changed = True
        if changed and any(s is not None for s in slots):
            b.set_models(list(slot_models))


def _run_closed_loop(i, robot, model, finished, *, cycles, min_cycles, stop_when_steady, steady_kw, chunk):
    """One point of a closed-loop robot: controls, then robot.feedback, then mj_step, every step.

    The model is a private copy (feedback may edit it).  Each step's row is the sensors of the
    state before it (as the native rollout records); a sampled row is followed by the maxima of
    the feedback's per-step values since the previous sample (so peaks between samples are kept).
    """
    import copy
    m = copy.copy(model)
    d = mujoco.MjData(m)
    spec = mujoco.mjtState.mjSTATE_INTEGRATION
    mujoco.mj_setState(m, d, robot.initial_state(model), spec)
    mujoco.mj_forward(m, d)             # sensors of the initial state: what feedback reads first
    naux = robot.n_aux
    s = Slot(i, robot, model, naux=naux)
    nsens = m.nsensordata
    stride = robot.steps_per_cycle // robot.samples_per_cycle
    rec = np.empty((chunk, nsens + naux))
    acc = np.full(naux, -np.inf)
    err = None
    loop = robot.native_loop(m, d)      # the same loop in compiled code, where the robot has one
    while not s.done:
        ctrl = robot.controls((s.step + np.arange(chunk)) * robot.timestep)
        if loop is not None:
            loop(ctrl, rec, s.step, stride, acc)
        else:
            for k in range(chunk):
                d.ctrl[:] = ctrl[k]
                aux = robot.feedback(m, d)
                if naux:
                    np.maximum(acc, aux, out=acc)
                mujoco.mj_step(m, d)
                rec[k, :nsens] = d.sensordata
                if naux and (s.step + k) % stride == 0:   # a sampled step: the maxima since the last sample
                    rec[k, nsens:] = acc
                    acc[:] = -np.inf
        err = _warning(s, d.warning.number, chunk)
        if err is not None:
            break
        used = _consume(s, rec, cycles, min_cycles, stop_when_steady, steady_kw)
        err = _health(s, rec[:used, :nsens], chunk)
        if err is not None:
            break
    finished(i, finish(s, err, steady_kw))


def _warning(s: Slot, counts, chunk: int) -> str | None:
    """The error for the MuJoCo warnings a chunk raised (counts: per warning type), or None."""
    if not counts.any():
        return None
    w = [WARNING_NAMES[n] for n in np.flatnonzero(counts)]
    dt = s.robot.timestep
    return f"MuJoCo warning {', '.join(w)} between t={s.step * dt:.4f} s and t={(s.step + chunk) * dt:.4f} s"


def _health(s: Slot, rec: np.ndarray, chunk: int) -> str | None:
    """Fold one chunk's steps into the slot's health maxima; an error for non-finite values."""
    if not len(rec):
        return None
    if not np.isfinite(rec).all():
        dt = s.robot.timestep
        return (f"non-finite (NaN/inf) sensor values between t={s.step * dt - chunk * dt:.4f} s "
                f"and t={s.step * dt:.4f} s")
    a = s.model.sensor(PENETRATION_SENSOR).adr[0]
    s.max_penetration = max(s.max_penetration, float(-rec[:, a].min()))
    if s.robot.loops:
        s.max_loop_gap = max(s.max_loop_gap, float(s.robot.loop_gaps(s.robot.readout(rec, s.model)).max()))
    return None


def _consume(s: Slot, rec: np.ndarray, cycles, min_cycles, stop_when_steady, steady_kw) -> int:
    """Take the samples of one chunk: every (steps_per_cycle/spc)-th step's sensors.
    Returns how many of the chunk's records belong to the run (all, unless it ended in it).

    rec[i] holds the sensors of the state *before* step s.step + i + 1, i.e. of
    the state after s.step + i steps (MuJoCo computes sensors at the start of a step).
    """
    steps = sampled_steps(s, len(rec), cycles)
    before = s.nsamples
    rows = rec[steps.start - s.step:steps.stop - s.step:steps.step] if steps else rec[:0]   # rec[g - s.step], g in steps
    end = take_samples(s, steps, rows, cycles, min_cycles, stop_when_steady, steady_kw)
    energy.fold(s, rec, steps[:s.nsamples - before])
    used = (end if end is not None else min(s.step + len(rec) - 1, cycles * s.robot.steps_per_cycle)) - s.step + 1
    s.step += len(rec)
    return used


def run_point(point, robot_cls, **kw) -> Run:
    """The single-run path: the same runner with one point."""
    return run_points([point], robot_cls, **kw)[0]


def batch_values(robot, run) -> tuple[dict, str | None]:
    """A batch run's results values and error: no metrics for a failed point, but its health so far;
    a finished run over the health limits, or one the robot flags (Robot.run_error), keeps its
    metrics and says why in `error`."""
    values = {} if run.error else robot.summarize(run)
    error = run.problem or (robot.run_error(values) if not run.error else None)
    values["max_penetration"] = run.max_penetration
    if robot.loops:
        values["max_loop_gap"] = run.max_loop_gap
    return values, error
