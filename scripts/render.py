#!/usr/bin/env python
"""MP4 video of a gait: python scripts/render.py [options] [overrides]  (= gaittwin render; gaittwin.app.render)."""
import sys

from gaittwin.app.render import main

if __name__ == "__main__":
    sys.exit(main())
