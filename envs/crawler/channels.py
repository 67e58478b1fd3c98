"""The crawler's observable channels (envs/core/model/channels.py): what a camera and the servos' encoders
measure on the real robot.  The crawler moves in its sagittal plane (x forward, z up)."""
from ..core.model.channels import CycleChannel, contact_channel, declare, sensor_channel


def channels_of(robot) -> list:
    return [sensor_channel("x", "m", "center_pos", "central link (body 'center') x", relative=True),
            sensor_channel("z", "m", "center_pos", "central link height", col=2, relative=True),
            sensor_channel("theta", "rad", "theta", "central link pitch (joint theta)"),
            *[sensor_channel(f"phi{i}", "rad", f"phi{i}", f"joint angle phi{i}") for i in (1, 2)],
            *[contact_channel(f"contact{i}", f"foot{i}_touch", f"foot {i} touches the floor (touch sensor > 0)")
              for i in (1, 2)]]


CYCLE = (CycleChannel("S", "m", "stride per cycle (steady)"), CycleChannel("V", "m/s", "mean speed S / T"))

declare("crawler", channels_of, CYCLE)
