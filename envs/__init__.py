"""gaittwin: MuJoCo digital twins of minimally actuated robots, driven by periodic inputs.

One package a robot (`envs/<robot>/`: the `Robot` subclass with its `Physics`, its declared
parameters and experiment options in `config.py`, its experiments, plots and fidelity claims),
and the robot-agnostic machinery in `envs/core/`.  `load(robot, **overrides)` returns a
dm_control Environment that runs the robot's gait open loop.  `gaittwin.core.model.gl` chooses the
rendering backend before MuJoCo is imported.
"""
from __future__ import annotations

from .core.model import gl
from .core.model.errors import ConfigError

if "mujoco" not in __import__("sys").modules:
    gl.configure()   # before MuJoCo is imported: it reads MUJOCO_GL at import

from .core.runs import config as _config  # noqa: E402,F401  (app, run, report schemas)
from .core.report import report as _report
from .core.model.robot import REGISTRY as ROBOTS, robot_class  # noqa: E402
# each import registers a robot and its schemas; this order is the robots' order everywhere (report, tables)
from .crawler.robot import Crawler  # noqa: E402,I001
from .snake.robot import Snake  # noqa: E402,I001
from .bolt.robot import Bolt  # noqa: E402,I001
from .miniaq.robot import MiniAQ  # noqa: E402,I001
# each robot's runner modules, imported for their registrations (@gaittwin.core.runs.experiment.runner("<experiment>"))
from .crawler.paper import experiments as _, feedback as _, slip_pattern as _, time_scaling as _  # noqa: E402,F811,I001
from .snake.paper import experiments as _  # noqa: E402,F811,I001
from .bolt.paper import experiments as _, twin_vs_paper as _  # noqa: E402,F811,I001
from .miniaq.paper import experiments as _, geometry_map as _  # noqa: E402,F811,I001
del _


def load(robot: str, *, cycles: float = 10.0, controller=None, **overrides):
    """A dm_control Environment of `robot` with config parameters `overrides`.

    The control step equals the physics step (the inputs are evaluated in chunks, exactly as
    the batch runner does); the episode lasts `cycles` periods (a positive finite number).
    controller(model, data, ctrl) -> ctrl, if given, closes the loop every step.
    """
    from .core.model.env import environment

    return environment(robot_class(robot)(**overrides), cycles=cycles, controller=controller)


__all__ = ["Bolt", "ConfigError", "Crawler", "MiniAQ", "ROBOTS", "Snake", "load", "robot_class"]
