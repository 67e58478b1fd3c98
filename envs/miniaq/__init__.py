"""miniaq: robot, experiments and fidelity claims."""

from .robot import MiniAQ

ROBOT = MiniAQ      # the Robot subclass this package provides (envs/registry.py lists it)

__all__ = ["ROBOT", "MiniAQ"]
