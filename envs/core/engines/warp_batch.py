"""The MuJoCo Warp batch runner behind `engine=warp` (see envs/core/engines/warp_engine.py): a pool of
worlds per model layout, refilled as points finish, with the same `runs.Run` results, health
checks and early stopping as the C runner (envs/core/engines/batch.py)."""
from __future__ import annotations

import collections

import mujoco
import numpy as np
import warp as wp

from . import runs, warp_engine as we, warp_law
from .warp_hook import AUX_RESET
from ..model.robot import PENETRATION_SENSOR

STATE = ("qpos", "qvel", "act", "qacc_warmstart", "ctrl", "time", "eq_active")
IDLE = 1 << 30          # the sampling stride of a world with no point: it never records
GRAPH_STEPS = 50        # steps per captured CUDA graph (at most; a divisor of the chunk)


@wp.kernel
def _set_ctrl(buf: wp.array3d(dtype=wp.float32), j: wp.array(dtype=wp.int32), ctrl: wp.array2d(dtype=wp.float32)):
    w, i = wp.tid()
    ctrl[w, i] = buf[j[0], w, i]


@wp.kernel
def _record(sd: wp.array2d(dtype=wp.float32), nefc: wp.array(dtype=wp.int32), nacon: wp.array(dtype=wp.int32),
            njmax: wp.int32, naconmax: wp.int32, pen_adr: wp.int32, loops: wp.array2d(dtype=wp.int32),
            wstep: wp.array(dtype=wp.int32), stride: wp.array(dtype=wp.int32), nsamp: wp.array(dtype=wp.int32),
            health: wp.array2d(dtype=wp.float32), out: wp.array3d(dtype=wp.float32), j: wp.array(dtype=wp.int32),
            aux: wp.array2d(dtype=wp.float32), naux: wp.int32):
    """After a step: fold this step's health into the world's accumulators; at a sampled step write
    the sensors, the health and a device feedback's aux maxima since the previous sample, then
    reset the accumulators."""
    w = wp.tid()
    nsens = sd.shape[1]
    health[w, 0] = wp.max(health[w, 0], -sd[w, pen_adr])
    for k in range(loops.shape[0]):
        a = loops[k, 0]
        b = loops[k, 1]
        gap = wp.length(wp.vec3(sd[w, a] - sd[w, b], sd[w, a + 1] - sd[w, b + 1], sd[w, a + 2] - sd[w, b + 2]))
        health[w, 1] = wp.max(health[w, 1], gap)
    for i in range(nsens):
        if not wp.isfinite(sd[w, i]):
            health[w, 2] = 1.0
    if nefc[w] > njmax or nacon[0] > naconmax:
        health[w, 3] = 1.0
    g = wstep[w]
    if g % stride[w] == 0:
        n = nsamp[w]
        for i in range(nsens):
            out[w, n, i] = sd[w, i]
        for i in range(4):
            out[w, n, nsens + i] = health[w, i]
        for i in range(naux):
            out[w, n, nsens + 4 + i] = aux[w, i]
            aux[w, i] = wp.float32(AUX_RESET)
        health[w, 0] = -1.0e30
        health[w, 1] = 0.0
        health[w, 2] = 0.0
        health[w, 3] = 0.0
        nsamp[w] = n + 1
    wstep[w] = g + 1
    if w == 0:
        j[0] = j[0] + 1


class _Pool:
    """One batch of `nworld` worlds of one warp layout, with its per-world fields and state."""

    def __init__(self, models, nworld: int, chunk: int, min_stride: int, dev: str, law: bool = False, hook=None):
        """law: the controls come from each point's `device_law()` (evaluated on the device before
        every step); else run_chunk takes them from the host.  hook: the points' DeviceFeedback
        (envs/core/engines/warp_hook.py), launched before every step, or None."""
        import mujoco_warp as mjw
        self.dev, self.nworld, self.chunk, self.law, self.hook = dev, nworld, chunk, law, hook
        m0 = models[0]
        self.m0 = m0
        Ms = {id(m): we._put(m) for m in models}
        self.varying = we.varying(list(Ms.values()))
        self.varying += [f for f in (hook.fields if hook else ()) if f not in self.varying]   # written per world
        self.names = STATE + (("sensordata", "actuator_force") if hook else ())    # what a hook reads first
        self.naux = hook.naux if hook else 0
        with wp.ScopedDevice(dev):
            self.M = mjw.put_model(m0)
            self.field_rows = {id(m): {p: we.getattr_path(Ms[id(m)], p).numpy()[0] for p in self.varying}
                               for m in models}
            self.host = {}
            for p in self.varying:
                a = we.getattr_path(self.M, p)
                self.host[p] = np.repeat(a.numpy(), nworld, axis=0)
                new = wp.array(self.host[p], dtype=a.dtype, device=dev)
                new._is_batched = True
                obj = self.M
                for part in p.split(".")[:-1]:
                    obj = getattr(obj, part)
                setattr(obj, p.split(".")[-1], new)
            nconmax = max(64, 4 * (m0.npair + m0.ngeom))
            self.D = mjw.make_data(m0, nworld=nworld, nconmax=nconmax)
            ns = m0.nsensordata
            self.nsamp_max = -(-chunk // min_stride) + 1
            self.out = wp.zeros((nworld, self.nsamp_max, ns + we.HEALTH + self.naux), dtype=wp.float32)
            self.health = wp.array(np.tile([-1e30, 0, 0, 0], (nworld, 1)).astype(np.float32))
            self.ctrl = wp.zeros((1 if law else chunk, nworld, m0.nu), dtype=wp.float32)
            self.P_host = np.zeros((nworld, warp_law.HEAD + warp_law.PER_ACT * m0.nu))
            self.P = wp.array(self.P_host, dtype=wp.float64)
            self.j = wp.zeros(1, dtype=wp.int32)
            self.wstep = wp.zeros(nworld, dtype=wp.int32)
            self.stride = wp.array(np.full(nworld, IDLE, np.int32))
            self.nsamp = wp.zeros(nworld, dtype=wp.int32)
            self.pen_adr = int(m0.sensor(PENETRATION_SENSOR).adr[0])
            self.aux = wp.array(np.full((nworld, max(1, self.naux)), AUX_RESET, np.float32))
            self.S_fb = wp.zeros((nworld, hook.nstate if hook else 1), dtype=wp.float64)
            self.P_fb_host = np.zeros((nworld, hook.nparam if hook else 1))
            self.P_fb = wp.array(self.P_fb_host, dtype=wp.float64)
            self.state = {}
            self.pull_state()
        self._initial: dict = {}
        self.graph = None
        self.graph_steps = max(k for k in range(1, min(chunk, GRAPH_STEPS) + 1) if chunk % k == 0)

    def load(self, k: int, robot, model) -> None:
        """World k starts point `robot` (its model's per-world fields, its initial state), on the host
        mirrors (push() copies them over)."""
        for p in self.varying:
            self.host[p][k] = self.field_rows[id(model)][p]
        hit = self._initial.get(id(robot))
        if hit is None or hit[0] is not robot:         # a point run again (the same Robot): computed once
            d = mujoco.MjData(model)
            mujoco.mj_setState(model, d, robot.initial_state(model), mujoco.mjtState.mjSTATE_INTEGRATION)
            if self.hook:                               # the sensors a hook's first step reads (C: mj_forward)
                mujoco.mj_forward(model, d)
            if len(self._initial) > 4096:
                self._initial.clear()
            hit = self._initial[id(robot)] = (robot, {name: np.copy(getattr(d, name)) for name in self.names})
        for name in self.names:
            self.state[name][k] = hit[1][name]
        if self.law:
            self.P_host[k] = warp_law.row(robot.device_law(), robot.timestep, model.nu)
        if self.hook:
            self.P_fb_host[k] = self.hook.row(robot, model)
            self.state["S_fb"][k] = self.hook.state0(robot, model)
            self.state["aux"][k] = AUX_RESET
        self.state["stride"][k] = robot.steps_per_cycle // robot.samples_per_cycle
        self.state["wstep"][k] = 0
        self.state["health"][k] = (-1e30, 0, 0, 0)

    def idle(self, k: int) -> None:
        self.state["stride"][k] = IDLE
        self.P_host[k] = 0.0

    def _arrays(self):
        return {**{k: getattr(self.D, k) for k in self.names}, "stride": self.stride, "wstep": self.wstep,
                "health": self.health, "S_fb": self.S_fb, "aux": self.aux}

    def push(self) -> None:
        """Copy the host's per-world fields and states to the device."""
        for p in self.varying:
            we.getattr_path(self.M, p).assign(self.host[p])
        if self.law:
            self.P.assign(self.P_host)
        if self.hook:
            self.P_fb.assign(self.P_fb_host)
        for name, a in self._arrays().items():
            if a.size:
                a.assign(self.state[name])

    def pull_state(self) -> None:
        for name, a in self._arrays().items():
            self.state[name] = a.numpy().copy()

    def run_chunk(self, ctrl: np.ndarray | None, loops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Step every world `chunk` times with controls ctrl (chunk, nworld, nu), or with the device
        law (ctrl None); returns the recorded samples (nworld, nsamp_max, nsens + HEALTH + naux: a
        world's rows contiguous, for the host's fold) and each world's sample count.  On CUDA the steps run as captured graphs of `graph_steps` steps."""
        import mujoco_warp as mjw
        if not self.law:
            self.ctrl.assign(ctrl.astype(np.float32))
        self.j.zero_()
        self.nsamp.zero_()
        D = self.D
        if not hasattr(self, "_loops"):
            self._loops = wp.array(loops.reshape(-1, 2).astype(np.int32), dtype=wp.int32, device=self.dev)
        rec_args = [D.sensordata, D.nefc, D.nacon, D.njmax, D.naconmax, self.pen_adr, self._loops, self.wstep,
                    self.stride, self.nsamp, self.health, self.out, self.j, self.aux, self.naux]

        def one():
            if self.law:
                wp.launch(warp_law.law_kernel, dim=(self.nworld, self.m0.nu), inputs=[self.P, self.wstep, D.ctrl],
                          device=self.dev)
            else:
                wp.launch(_set_ctrl, dim=(self.nworld, self.m0.nu), inputs=[self.ctrl, self.j, D.ctrl],
                          device=self.dev)
            if self.hook:
                self.hook.launch(self.M, D, self.P_fb, self.S_fb, self.aux, self.wstep, self.dev)
            mjw.step(self.M, D)
            wp.launch(_record, dim=self.nworld, inputs=rec_args, device=self.dev)

        with wp.ScopedDevice(self.dev):
            if wp.get_device(self.dev).is_cuda:
                if self.graph is None:
                    one()                      # loads every kernel before capture; then undone:
                    self.push()                # the host mirrors still hold this chunk's start
                    self.j.zero_()
                    self.nsamp.zero_()
                    with wp.ScopedCapture() as cap:
                        for _ in range(self.graph_steps):
                            one()
                    self.graph = cap.graph
                for _ in range(self.chunk // self.graph_steps):
                    wp.capture_launch(self.graph)
            else:
                for _ in range(self.chunk):
                    one()
            wp.synchronize_device(self.dev)
        return self.out.numpy(), self.nsamp.numpy()


def run_points(robots, *, cycles, min_cycles, stop_when_steady, steady_kw, chunk, finished,
               nworld=None, device=None) -> None:
    """Simulate Robot points on MuJoCo Warp; finished(i, run) as each finishes (batch.run_points' contract)."""
    dev = we.device(device)
    nworld = int(nworld or we.NWORLD["cuda" if dev.startswith("cuda") else "cpu"])
    models = [r.model() for r in robots]
    for idx in we.groups(models):
        _run_group(idx, robots, models, finished, cycles=cycles, min_cycles=min_cycles,
                   stop_when_steady=stop_when_steady, steady_kw=steady_kw, chunk=chunk,
                   nworld=min(nworld, len(idx)), dev=dev)


def _run_group(idx, robots, models, finished, *, cycles, min_cycles, stop_when_steady, steady_kw, chunk,
               nworld, dev):
    pending = collections.deque(sorted(idx, key=lambda i: -robots[i].steps_per_cycle * robots[i].period))
    distinct = list({id(models[i]): models[i] for i in idx}.values())
    min_stride = min(robots[i].steps_per_cycle // robots[i].samples_per_cycle for i in idx)
    law = all(robots[i].device_law() is not None for i in idx)
    hook = robots[idx[0]].device_feedback()
    pool = _Pool(distinct, nworld, chunk, min_stride, dev, law, hook)
    m0 = models[idx[0]]
    loops = np.array([[m0.sensor(a).adr[0], m0.sensor(b).adr[0]] for a, b in robots[idx[0]].loops], dtype=np.int32)
    nsens = m0.nsensordata
    slots: list = [None] * nworld

    def assign(k):
        if not pending:
            slots[k] = None
            pool.idle(k)
            return
        i = pending.popleft()
        slots[k] = runs.Slot(i, robots[i], models[i], naux=pool.naux)
        pool.load(k, robots[i], models[i])

    for k in range(nworld):
        assign(k)
    pool.push()
    while any(s is not None for s in slots):
        ctrl = None
        if not law:
            ctrl = np.zeros((chunk, nworld, m0.nu))
            for k, s in enumerate(slots):
                if s is not None:
                    ctrl[:, k] = s.robot.controls((s.step + np.arange(chunk)) * s.robot.timestep)
        out, nsamp = pool.run_chunk(ctrl, loops)
        changed = False
        for k, s in enumerate(slots):
            if s is None:
                continue
            rows = out[k, :nsamp[k]]
            err = _fold(s, rows, nsens, chunk, cycles, min_cycles, stop_when_steady, steady_kw)
            if err is not None or s.done:
                finished(s.index, runs.finish(s, err, steady_kw, engine="warp"))
                if not changed:
                    pool.pull_state()
                changed = True
                assign(k)
        if changed:
            pool.push()


def _fold(s, rows, nsens, chunk, cycles, min_cycles, stop_when_steady, steady_kw) -> str | None:
    """Take one chunk's samples of slot s (runs.take_samples) and fold the health of the steps
    up to the run's end; an error for non-finite sensors or a constraint/contact overflow."""
    steps = runs.sampled_steps(s, chunk, cycles)
    n = min(len(rows), len(steps))
    samples = rows[:n, :nsens] if not s.naux else np.concatenate([rows[:n, :nsens], rows[:n, nsens + we.HEALTH:]], 1)
    end = runs.take_samples(s, steps[:n], samples, cycles, min_cycles, stop_when_steady, steady_kw)   # copies
    used = n if end is None else steps.index(end) + 1
    s.step += chunk
    h = rows[:used, nsens:nsens + we.HEALTH]
    bad = np.flatnonzero(h[:, 2] + h[:, 3])
    if len(bad):
        g, dt = steps[bad[0]], s.robot.timestep
        stride = s.robot.steps_per_cycle // s.robot.samples_per_cycle
        what = "non-finite (NaN/inf) sensor values" if h[bad[0], 2] else "MuJoCo Warp constraint or contact overflow"
        return f"{what} between t={max(0, g - stride) * dt:.4f} s and t={g * dt:.4f} s (engine=warp)"
    if used:
        s.max_penetration = max(s.max_penetration, float(h[:, 0].max()))
        if s.robot.loops:
            s.max_loop_gap = max(s.max_loop_gap, float(h[:, 1].max()))
    return None


def first_step(robot, device=None) -> float:
    """Seconds to put `robot`'s model on `device` and take its first step (the kernels compiled, or
    loaded from Warp's kernel cache): what a run pays once before its worlds step."""
    import time
    t0 = time.perf_counter()
    m = robot.model()
    we.check([robot])
    law = robot.device_law() is not None
    pool = _Pool([m], 1, 1, robot.steps_per_cycle // robot.samples_per_cycle, we.device(device), law,
                 robot.device_feedback())
    pool.load(0, robot, m)
    pool.push()
    loops = np.array([[m.sensor(a).adr[0], m.sensor(b).adr[0]] for a, b in robot.loops], dtype=np.int32)
    pool.run_chunk(None if law else robot.controls(np.zeros(1))[:, None], loops)
    return time.perf_counter() - t0
