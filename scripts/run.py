#!/usr/bin/env python
"""Run an experiment: python scripts/run.py experiment=<name> [overrides]  (= gaittwin run; gaittwin.app.run)."""
import sys

from gaittwin.app.run import main

if __name__ == "__main__":
    sys.exit(main())
