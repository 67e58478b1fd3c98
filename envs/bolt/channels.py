"""BOLT's observable channels (envs/core/trajectory.py): the body's position in the sagittal plane (x
forward, z up; a camera), the crank angle (its encoder), the foot relative to the body and the foot's
contact flag."""
from envs.core.trajectory import Channel, declare


def channels_of(robot) -> list:
    return [Channel("x", "m", lambda r: r.sensor("body_pos")[:, 0], "body (base) x", relative=True),
            Channel("z", "m", lambda r: r.sensor("body_pos")[:, 2], "body (base) height", relative=True),
            Channel("q_1", "rad", lambda r: r.sensor("q_1")[:, 0], "crank angle q_1 (accumulated)"),
            Channel("foot_x", "m", lambda r: r.sensor("foot_in_B")[:, 0], "foot F in the body frame, x"),
            Channel("foot_z", "m", lambda r: r.sensor("foot_in_B")[:, 2], "foot F in the body frame, z"),
            Channel("contact", "1", lambda r: (r.sensor("foot_touch")[:, 0] > 0).astype(float),
                    "foot touches the ground (touch sensor > 0)", kind="flag")]


declare("bolt", channels_of)
