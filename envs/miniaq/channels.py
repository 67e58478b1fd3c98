"""MinIAQ-II's observable channels (envs/core/model/channels.py): the torso's planar pose (x, y, yaw; a camera
from above), the four crank angles (encoders) and the four feet's contact flags."""
import numpy as np

from ..core.model.channels import Channel, CycleChannel, contact_channel, declare, sensor_channel

LEGS = ("fl", "fr", "hl", "hr")


def yaw(r) -> np.ndarray:
    w, x, y, z = r.sensor("torso_quat").T
    return np.unwrap(np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)))


def channels_of(robot) -> list:
    return [sensor_channel("x", "m", "torso_pos", "torso x", relative=True),
            sensor_channel("y", "m", "torso_pos", "torso y", col=1, relative=True),
            Channel("yaw", "rad", yaw, "torso yaw (unwrapped)", relative=True),
            *[sensor_channel(f"{g}_crank", "rad", f"{g}_crank_pos", f"{g} crank angle") for g in LEGS],
            *[contact_channel(f"{g}_contact", f"{g}_touch", f"{g} foot touches the floor") for g in LEGS]]


CYCLE = (CycleChannel("speed", "m/s", "forward speed"), CycleChannel("yaw_rate_deg_s", "deg/s", "mean yaw rate"))

declare("miniaq", channels_of, CYCLE)
