#!/usr/bin/env python
"""Interactive viewer: python scripts/view.py [options] [overrides]  (= gaittwin view; gaittwin.app.view)."""
import sys

from gaittwin.app.view import main

if __name__ == "__main__":
    sys.exit(main())
