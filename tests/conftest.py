import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gaittwin  # noqa: E402,F401  (chooses the GL backend before anything imports MuJoCo)
