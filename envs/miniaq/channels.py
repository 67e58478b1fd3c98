"""MinIAQ-II's observable channels (envs/core/trajectory.py): the torso's planar pose (x, y, yaw; a camera
from above), the four crank angles (encoders) and the four feet's contact flags."""
import numpy as np

from envs.core.trajectory import Channel, declare

LEGS = ("fl", "fr", "hl", "hr")


def yaw(r) -> np.ndarray:
    w, x, y, z = r.sensor("torso_quat").T
    return np.unwrap(np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)))


def channels_of(robot) -> list:
    return [Channel("x", "m", lambda r: r.sensor("torso_pos")[:, 0], "torso x", relative=True),
            Channel("y", "m", lambda r: r.sensor("torso_pos")[:, 1], "torso y", relative=True),
            Channel("yaw", "rad", yaw, "torso yaw (unwrapped)", relative=True),
            *[Channel(f"{g}_crank", "rad", (lambda g: lambda r: r.sensor(f"{g}_crank_pos")[:, 0])(g),
                      f"{g} crank angle") for g in LEGS],
            *[Channel(f"{g}_contact", "1", (lambda g: lambda r: (r.sensor(f"{g}_touch")[:, 0] > 0).astype(float))(g),
                      f"{g} foot touches the floor", kind="flag") for g in LEGS]]


declare("miniaq", channels_of)
