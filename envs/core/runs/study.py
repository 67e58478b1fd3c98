"""How a measured study ends (envs/<robot>/paper/studies/, scripts/studies/): its numbers to --json, exit 0."""
from __future__ import annotations

import json


def finish(res, json_path) -> int:
    """A study's end: its results `res` written to `json_path` (if given), exit status 0."""
    if json_path:
        with open(json_path, "w") as f:
            json.dump(res, f, indent=1, default=float)
    return 0
