"""The interactive viewer's session (scripts/view.py): real-time pacing, the live real-time factor,
live figures and texts on MuJoCo's passive viewer, and keys.

Pacing: the simulation follows the wall clock times a rate (1 = real time); each frame steps until
the simulated time reaches the target, at most one frame's worth of wall time of stepping, so a
robot that cannot keep up shows it (the real-time factor, RTF = simulated s / wall s over the last
second, drawn on screen; below 0.95 at rate 1 a warning is drawn and printed).  The step is the
robot's `viewer_timestep` (a larger step validated against the reference, models/<robot>/README.md
"Viewer timestep"), else its own.

Keys (the callback only queues them; the main loop applies them):
  space            pause / resume
  -  /  =          half / double the rate (slow motion, at most real time)
  right arrow      one frame's worth of steps while paused
  backspace        reset the gait to t = 0
  page up / down   the robot's gait parameter (`gait_parameter`: name, step) up / down; restarts
"""
from __future__ import annotations

import collections
import copy
import dataclasses
import os
import time

import mujoco
import numpy as np

from ..model import energy
from .render import gait_text
from ..model.stepper import Stepper

HINT = ("error: no display: the interactive viewer needs one (DISPLAY is not set).\n"
        "  run it under a virtual display:  xvfb-run -a python scripts/view.py [--duration S] [overrides]\n"
        "  or write a video instead:        python scripts/render.py [overrides]")
KEYS = {32: "pause", 45: "slower", 61: "faster", 262: "step", 259: "reset", 266: "gait_up", 267: "gait_down"}
RTF_WARN = 0.95                 # below this at rate 1 the viewer is behind real time: said on screen
HISTORY = 400                   # points per figure line (mjMAXLINEPNT is 1000)


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def lower_priority(threads, nice: int) -> None:
    """Add `nice` to the CPU niceness of these threads (Linux: per thread); ignored elsewhere."""
    for t in threads:
        tid = getattr(t, "native_id", None)
        if nice and tid is not None and hasattr(os, "setpriority"):
            try:
                os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + nice))
            except OSError:
                pass


def viewer_robot(robot):
    """The robot at its declared viewer timestep (a larger, validated step), else unchanged."""
    dt = getattr(type(robot), "viewer_timestep", None)
    if dt is None or dt <= robot.cfg.get("timestep", dt):
        return robot
    return type(robot)(**{**robot.cfg, "timestep": dt})


@dataclasses.dataclass
class Signals:
    """The live signals of one robot, read from the sensors the model already has."""
    touch: list          # names of touch sensors (contact normal force)
    inputs: int          # how many control columns are drawn (the prescribed inputs)

    @classmethod
    def of(cls, model) -> "Signals":
        touch = [model.sensor(i).name for i in range(model.nsensor) if model.sensor_type[i] == mujoco.mjtSensor.mjSENS_TOUCH]
        return cls(touch[:4], min(model.nu, 4))


class Session:
    """One viewer session of `robot`: steps, measures, and draws (see the module docstring)."""

    def __init__(self, robot, fps: float = 60.0, clock=time.perf_counter):
        self.base = robot
        self.robot = viewer_robot(robot)
        self.step = Stepper(self.robot, copy.copy(self.robot.model()))   # private: restart() edits its timestep
        self.model, self.data = self.step.model, self.step.data
        self.fps, self.clock = float(fps), clock
        self.rate, self.paused = 1.0, False
        self.keys: collections.deque = collections.deque()
        self.signals = Signals.of(self.model)
        self.hist: dict = collections.defaultdict(lambda: collections.deque(maxlen=HISTORY))
        self.rtf = float("nan")
        self.behind = False
        self._window = collections.deque()      # (wall, sim) over the last second, for the RTF
        self._anchor = (clock(), 0.0)           # (wall, sim) the pacing is measured from
        self.min_rtf = float("inf")             # the lowest full-second RTF seen at rate 1

    # ---- keys ---------------------------------------------------------------------------------
    def key(self, keycode: int) -> None:
        """The viewer's key callback (its own thread): queue a known key."""
        if keycode in KEYS:
            self.keys.append(KEYS[keycode])

    def apply(self, action: str) -> None:
        if action == "pause":
            self.paused = not self.paused
        elif action == "slower":
            self.rate = max(self.rate / 2, 1 / 64)
        elif action == "faster":
            self.rate = min(self.rate * 2, 1.0)
        elif action == "step" and self.paused:
            self.step(max(1, round(1 / self.fps / self.model.opt.timestep)))
        elif action == "reset":
            self.restart(self.robot)
        elif action in ("gait_up", "gait_down"):
            name, d = type(self.robot).gait_parameter
            v = self.robot.cfg[name] + (d if action == "gait_up" else -d)
            try:
                r = type(self.robot)(**{**self.robot.cfg, name: v})
            except Exception as e:              # out of range: keep the gait, say why
                print(f"viewer: {name}={v:g} refused: {e}")
                return
            self.restart(r)
        self._anchor = (self.clock(), self.data.time)
        self._window.clear()

    def restart(self, robot) -> None:
        """The gait from t = 0 (the same model: only its timestep follows the new period)."""
        self.robot = robot
        self.model.opt.timestep = robot.timestep
        self.step = Stepper(robot, self.model, self.data)
        self.hist.clear()

    # ---- one frame ------------------------------------------------------------------------------
    def advance(self) -> None:
        """Step towards the paced target time, for at most one frame of wall time."""
        while self.keys:
            self.apply(self.keys.popleft())
        now = self.clock()
        if self.paused:
            self._anchor = (now, self.data.time)
            return
        target = self._anchor[1] + (now - self._anchor[0]) * self.rate
        budget = now + 1.0 / self.fps
        n = max(1, round(1 / self.fps / self.model.opt.timestep / 4))
        while self.data.time < target and self.clock() < budget:
            self.step(n)
        self._measure()

    def _measure(self) -> None:
        now, sim = self.clock(), self.data.time
        w = self._window
        w.append((now, sim))
        while w and now - w[0][0] > 1.0:
            w.popleft()
        if len(w) >= 2 and w[-1][0] > w[0][0]:
            self.rtf = (w[-1][1] - w[0][1]) / (w[-1][0] - w[0][0])
            full = w[-1][0] - w[0][0] > 0.9
            self.behind = full and self.rate == 1.0 and self.rtf < RTF_WARN
            if full and self.rate == 1.0:
                self.min_rtf = min(self.min_rtf, self.rtf)
        self._record()

    def _record(self) -> None:
        m, d, r = self.model, self.data, self.robot
        t = d.time
        sd = d.sensordata[None]
        self.hist["progress"].append((t, float(r.progress(sd, m)[0])))
        self.hist["power"].append((t, float(energy.power(sd, m)[0])))
        for i in range(self.signals.inputs):
            self.hist[f"u{i}"].append((t, float(d.ctrl[i])))
        for name in self.signals.touch:
            self.hist[name].append((t, float(r.sensor(sd, m, name)[0, 0])))
        if r.loops:
            self.hist["loop_gap"].append((t, 1e3 * float(r.loop_gaps(r.readout(sd, m)).max())))

    def speed(self) -> float:
        """Progress over the last (up to) 2 s of history / its duration (m/s)."""
        h = self.hist["progress"]
        if len(h) < 2:
            return float("nan")
        t1, x1 = h[-1]
        t0, x0 = next(((t, x) for t, x in h if t >= t1 - 2.0), h[0])
        return (x1 - x0) / (t1 - t0) if t1 > t0 else float("nan")

    # ---- drawing ------------------------------------------------------------------------------
    def texts(self) -> list:
        r = self.robot
        name, _ = getattr(type(r), "gait_parameter", (None, None))
        gait = gait_text(r, " = ")
        state = "PAUSED" if self.paused else (f"{self.rate:g}x (slow motion)" if self.rate < 1 else "real time")
        left = "\n".join(["robot", "gait", "time", "speed", "power", "real-time factor", "step", "keys"])
        right = "\n".join([r.name, gait, f"{self.data.time:.2f} s", f"{self.speed() * 1e3:.1f} mm/s",
                           f"{self.hist['power'][-1][1] if self.hist['power'] else 0:.3g} W",
                           f"{self.rtf:.2f}x  {state}" + ("  BEHIND REAL TIME" if self.behind else ""),
                           f"{self.model.opt.timestep:.3g} s",
                           "space pause, -/= rate, right step, backspace reset, pgup/pgdn " + (name or "-")])
        return [(mujoco.mjtFontScale.mjFONTSCALE_150, mujoco.mjtGridPos.mjGRID_TOPLEFT, left, right)]

    def figures(self, viewport) -> list:
        """(rect, MjvFigure) pairs down the right edge: progress, inputs, contact forces, power (+ loop gap)."""
        panels = [("progress [m]", ["progress"]), ("inputs (ctrl)", [f"u{i}" for i in range(self.signals.inputs)]),
                  ("contact normal force [N]", self.signals.touch), ("motor power [W]", ["power"])]
        if self.robot.loops:
            panels.append(("loop gap [mm]", ["loop_gap"]))
        W, H = (viewport.width, viewport.height) if viewport is not None else (1200, 900)
        w, h = W // 4, H // len(panels)
        out = []
        for k, (title, lines) in enumerate(panels):
            fig = mujoco.MjvFigure()
            fig.title = title
            fig.flg_extend = 1
            fig.figurergba[3] = 0.5
            for j, key in enumerate(lines[:mujoco.mjMAXLINE]):
                pts = np.array(self.hist[key]) if self.hist.get(key) else np.zeros((0, 2))
                fig.linepnt[j] = len(pts)
                if len(pts):
                    fig.linedata[j, :2 * len(pts)] = pts.ravel()
                fig.linename[j] = key
            out.append((mujoco.MjrRect(W - w, H - (k + 1) * h, w, h), fig))
        return out
