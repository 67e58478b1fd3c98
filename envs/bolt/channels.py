"""BOLT's observable channels (envs/core/model/channels.py): the body's position in the sagittal plane (x
forward, z up; a camera), the crank angle (its encoder), the foot relative to the body and the foot's
contact flag."""
from ..core.model.channels import CycleChannel, contact_channel, declare, sensor_channel


def channels_of(robot) -> list:
    return [sensor_channel("x", "m", "body_pos", "body (base) x", relative=True),
            sensor_channel("z", "m", "body_pos", "body (base) height", col=2, relative=True),
            sensor_channel("q_1", "rad", "q_1", "crank angle q_1 (accumulated)"),
            sensor_channel("foot_x", "m", "foot_in_B", "foot F in the body frame, x"),
            sensor_channel("foot_z", "m", "foot_in_B", "foot F in the body frame, z", col=2),
            contact_channel("contact", "foot_touch", "foot touches the ground (touch sensor > 0)")]


CYCLE = (CycleChannel("crank_period", "s", "crank period"),
         CycleChannel("peak_foot_force", "N", "peak foot normal force"))

declare("bolt", channels_of, CYCLE)
