"""snake: robot, experiments and fidelity claims."""

from .robot import Snake

ROBOT = Snake      # the Robot subclass this package provides (envs/registry.py lists it)

__all__ = ["ROBOT", "Snake"]
