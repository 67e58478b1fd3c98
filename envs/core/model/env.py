"""A dm_control Task shared by all robots: the prescribed periodic inputs, open loop.

The environment takes no action: its `action_spec` is empty and a non-empty action is an
error (the gait is prescribed; a feedback law plugs in as `controller(model, data, ctrl) ->
ctrl`, the one controller signature of envs/core/model/stepper.py).  The reward is the speed of
the robot's progress signal over the last step.
"""
from __future__ import annotations

import collections
import copy
import math

import numpy as np
from dm_control.rl import control
from dm_env import specs

from .errors import ConfigError
from .robot import Robot
from .stepper import Schedule, reset


class GaitTask(control.Task):
    def __init__(self, robot: Robot, controller=None, observe=None):
        self.robot = robot
        self.controller = controller
        self._observe = observe
        self._random = np.random.RandomState(0)

    @property
    def random(self):
        return self._random

    def initialize_episode(self, physics):
        reset(self.robot, physics.model.ptr, physics.data.ptr)
        self._schedule, self._k = Schedule(self.robot), 0
        self._last, self._rate = self._progress(physics), 0.0

    def action_spec(self, physics):
        return specs.BoundedArray((0,), float, np.zeros(0), np.zeros(0), name="no_action")

    def before_step(self, action, physics):
        if action is not None and np.size(action):
            raise ValueError(f"the {self.robot.name} environment takes no action (its action_spec is empty; "
                             f"the gait is prescribed): got {np.size(action)} numbers")
        ctrl = self._schedule(self._k)
        if self.controller is not None:
            ctrl = self.controller(physics.model.ptr, physics.data.ptr, ctrl.copy())
        physics.data.ctrl[:] = ctrl
        if self.robot.closed_loop:   # the robot's own per-step hook (the physics' model is a copy)
            self.robot.feedback(physics.model.ptr, physics.data.ptr)

    def get_observation(self, physics):
        if self._observe is not None:
            return self._observe(physics)
        obs = collections.OrderedDict()
        obs["qpos"] = physics.data.qpos.copy()
        obs["qvel"] = physics.data.qvel.copy()
        obs["sensordata"] = physics.data.sensordata.copy()
        return obs

    def _progress(self, physics) -> float:
        return float(self.robot.progress(physics.data.sensordata[None], physics.model.ptr)[0])

    def after_step(self, physics):
        self._k += 1
        x = self._progress(physics)
        self._rate = (x - self._last) / physics.timestep()
        self._last = x

    def get_reward(self, physics):
        """Forward speed of the robot's progress signal (m/s) over the last step."""
        return self._rate


def environment(robot: Robot, *, cycles: float = 10.0, controller=None) -> control.Environment:
    """A dm_control Environment of one robot point; the episode lasts `cycles` periods."""
    from dm_control.mujoco import wrapper

    if isinstance(cycles, bool) or not isinstance(cycles, (int, float)) or not math.isfinite(cycles) or cycles <= 0:
        raise ConfigError("cycles", cycles, "(0, inf) periods, a finite number")
    physics = robot.physics.from_model(wrapper.MjModel(copy.copy(robot.model())))
    # half a step short of cycles * T: the episode is exactly round(cycles * steps_per_cycle) steps,
    # whatever the rounding of the accumulated time
    steps = max(1, round(cycles * robot.steps_per_cycle))
    return control.Environment(physics, GaitTask(robot, controller=controller),
                               time_limit=(steps - 0.5) * robot.timestep, n_sub_steps=1, flat_observation=False)
