"""The crawler's observable channels (envs/core/trajectory.py): what a camera and the servos' encoders
measure on the real robot.  The crawler moves in its sagittal plane (x forward, z up)."""
from envs.core.trajectory import Channel, declare


def channels_of(robot) -> list:
    return [Channel("x", "m", lambda r: r.sensor("center_pos")[:, 0], "central link (body 'center') x", relative=True),
            Channel("z", "m", lambda r: r.sensor("center_pos")[:, 2], "central link height", relative=True),
            Channel("theta", "rad", lambda r: r.sensor("theta")[:, 0], "central link pitch (joint theta)"),
            Channel("phi1", "rad", lambda r: r.sensor("phi1")[:, 0], "joint angle phi1"),
            Channel("phi2", "rad", lambda r: r.sensor("phi2")[:, 0], "joint angle phi2"),
            *[Channel(f"contact{i}", "1", (lambda i: lambda r: (r.sensor(f"foot{i}_touch")[:, 0] > 0).astype(float))(i),
                      f"foot {i} touches the floor (touch sensor > 0)", kind="flag") for i in (1, 2)]]


declare("crawler", channels_of)
