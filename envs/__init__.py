"""gaittwin: MuJoCo digital twins of minimally actuated robots, driven by periodic inputs.

One package a robot (`envs/<robot>/`: the `Robot` subclass with its `Physics`, its declared
parameters and experiment options in `config.py`; `envs/<robot>/paper/`: its experiments, plots and
fidelity claims), and the robot-agnostic machinery in `envs/core/`.  The manifest (`envs/registry.py`)
lists the robots and what each provides, in the robots' order; this module hands it to core once
(`gaittwin.core.registry.install`): nothing registers itself on import.  `load(robot, **overrides)`
returns a dm_control Environment that runs the robot's gait open loop.  `gaittwin.core.model.gl`
chooses the rendering backend before MuJoCo is imported.
"""
from __future__ import annotations

from .core.model import gl
from .core.model.errors import ConfigError

if "mujoco" not in __import__("sys").modules:
    gl.configure()   # before MuJoCo is imported: it reads MUJOCO_GL at import

from . import registry  # noqa: E402  (the manifest: the robots and what each provides)
from .core.model.robot import REGISTRY as ROBOTS, robot_class  # noqa: E402  (name -> Robot subclass, as installed)
from .core.registry import install  # noqa: E402
from .bolt import Bolt  # noqa: E402
from .crawler import Crawler  # noqa: E402
from .miniaq import MiniAQ  # noqa: E402
from .snake import Snake  # noqa: E402

install(registry.ROBOTS, registry.CORE_EXPERIMENTS)     # core reads the robots, runners, claims from here on


def load(robot: str, *, cycles: float = 10.0, controller=None, **overrides):
    """A dm_control Environment of `robot` with config parameters `overrides`.

    The control step equals the physics step (the inputs are evaluated in chunks, exactly as
    the batch runner does); the episode lasts `cycles` periods (a positive finite number).
    controller(model, data, ctrl) -> ctrl, if given, closes the loop every step.
    """
    from .core.model.env import environment

    return environment(robot_class(robot)(**overrides), cycles=cycles, controller=controller)


__all__ = ["Bolt", "ConfigError", "Crawler", "MiniAQ", "ROBOTS", "Snake", "load", "registry", "robot_class"]
