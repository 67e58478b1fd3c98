"""The one per-step path: a robot's open-loop inputs, evaluated in vectorised chunks.

Every path that steps a single simulation (viewer, video, dm_control environment, feedback
experiments) uses `Schedule` for its controls and, outside dm_control, `Stepper` to step.
Controls at step k are `robot.controls(k * dt)`, computed `chunk` steps at a time exactly
as the batch runner does, so every path sees the same inputs bit for bit.

A feedback controller has one signature everywhere: `controller(model, data, ctrl) -> ctrl`,
called before each step with the open-loop controls (time: `data.time`).  A robot with
`closed_loop` also gets its own `feedback(model, data)` hook before each step (after the
controls), on every path: here, the dm_control task and the batch runner.
"""
from __future__ import annotations

import copy

import mujoco
import numpy as np

from .robot import Robot


class Schedule:
    """Open-loop controls of `robot` by step index, cached one chunk at a time."""

    def __init__(self, robot: Robot, chunk: int = 2000):
        self.robot, self.chunk = robot, int(chunk)
        self._k0, self._buf = 0, robot.controls(np.arange(self.chunk) * robot.timestep)

    def __call__(self, k: int) -> np.ndarray:
        if not self._k0 <= k < self._k0 + self.chunk:
            self._k0 = k
            self._buf = self.robot.controls((k + np.arange(self.chunk)) * self.robot.timestep)
        return self._buf[k - self._k0]

    def block(self, k: int, n: int) -> np.ndarray:
        """The controls of steps k, k+1, ... up to n of them, from one cached chunk (fewer where it ends): the rows
        calls k, k+1, ... would return."""
        self(k)
        return self._buf[k - self._k0:min(k - self._k0 + n, self.chunk)]


def reset(robot: Robot, model: mujoco.MjModel, data: mujoco.MjData) -> None:
    """The t = 0 state of every path: the robot's initial pose with the t = 0 controls."""
    mujoco.mj_resetData(model, data)
    robot.initial_pose(model, data)
    data.time = 0.0
    data.ctrl[:] = robot.controls(np.zeros(1))[0]
    mujoco.mj_forward(model, data)


class Stepper:
    """Steps one simulation of `robot` with its inputs (and an optional feedback controller)."""

    def __init__(self, robot: Robot, model: mujoco.MjModel | None = None, data: mujoco.MjData | None = None,
                 controller=None, chunk: int = 2000):
        self.robot = robot
        if model is None:   # a closed-loop robot's feedback may edit its model: a private copy
            model = copy.copy(robot.model()) if robot.closed_loop else robot.model()
        self.model = model
        self.data = mujoco.MjData(self.model) if data is None else data
        self.controller = controller
        self.schedule = Schedule(robot, chunk)
        reset(robot, self.model, self.data)
        self.k = 0                       # steps taken
        self._loop = robot.native_loop(self.model, self.data) if robot.closed_loop and controller is None else None

    def __call__(self, n: int = 1) -> None:
        m, d, sched, ctl = self.model, self.data, self.schedule, self.controller
        n = int(n)
        while self._loop is not None and n > 0:   # the robot's loop in compiled code (Robot.native_loop)
            ctrl = sched.block(self.k, n)
            self._loop(ctrl)
            self.k += len(ctrl)
            n -= len(ctrl)
        for _ in range(n):
            ctrl = sched(self.k)
            d.ctrl[:] = ctrl if ctl is None else ctl(m, d, ctrl.copy())
            if self.robot.closed_loop:   # the robot's own per-step hook (e.g. phase-dependent limits)
                self.robot.feedback(m, d)
            mujoco.mj_step(m, d)
            self.k += 1
