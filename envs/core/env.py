"""A dm_control Task shared by all robots: open-loop periodic inputs, with hooks for feedback.

The task runs with no agent: `action` is optional.  A feedback controller
(e.g. the crawler paper's Section VIII law) plugs in as `controller(physics,
t, ctrl) -> ctrl`, called every control step with the open-loop controls.
An agent's action, when given, is added to the position references.
"""
from __future__ import annotations

import collections

import numpy as np
from dm_control.rl import control
from dm_env import specs

from envs.core.robot import Robot


class GaitTask(control.Task):
    def __init__(self, robot: Robot, controller=None, observe=None):
        self.robot = robot
        self.controller = controller
        self._observe = observe
        self.n_position = robot.controls(np.zeros(1)).shape[1]
        self._random = np.random.RandomState(0)

    @property
    def random(self):
        return self._random

    def initialize_episode(self, physics):
        physics.data.time = 0.0
        self.robot.initial_pose(physics.model._model, physics.data._data)
        physics.data.ctrl[:] = self.robot.controls(np.zeros(1))[0]
        physics.forward()
        self._last, self._rate = self._progress(physics), 0.0

    def action_spec(self, physics):
        n = getattr(self.robot, "n_action", 0)
        return specs.BoundedArray((n,), float, -np.ones(n), np.ones(n), name="position_offsets")

    def before_step(self, action, physics):
        t = physics.data.time
        ctrl = self.robot.controls(np.array([t]))[0]
        if action is not None and np.size(action):
            ctrl[: np.size(action)] += np.asarray(action, float)
        if self.controller is not None:
            ctrl = self.controller(physics, t, ctrl)
        physics.data.ctrl[:] = ctrl

    def get_observation(self, physics):
        if self._observe is not None:
            return self._observe(physics)
        obs = collections.OrderedDict()
        obs["qpos"] = physics.data.qpos.copy()
        obs["qvel"] = physics.data.qvel.copy()
        obs["sensordata"] = physics.data.sensordata.copy()
        return obs

    def _progress(self, physics) -> float:
        return float(self.robot.progress(physics.data.sensordata[None], physics.model._model)[0])

    def after_step(self, physics):
        x = self._progress(physics)
        self._rate = (x - self._last) / physics.timestep()
        self._last = x

    def get_reward(self, physics):
        """Forward speed of the robot's progress signal (m/s) over the last step."""
        return self._rate
