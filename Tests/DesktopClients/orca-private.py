#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs Orca (Debian 12's orca 43, its Python modules) for announced's desktop-client tests, as
/usr/bin/orca does, but without its look for other Orca processes.

/usr/bin/orca names its process "orca"; with --replace it SIGKILLs every process of the same user
named orca (pgrep -u UID -x orca), and without it refuses to start while there is one. On a
machine shared by several test runs (or with the user's own Orca running) that would kill, or be
stopped by, an Orca of another session. This launcher keeps its process name (python3), so
neither happens; everything else (the settings manager with the preferences folder given, then
orca.main()) is what /usr/bin/orca does.

Usage: orca-private.py PREFERENCES_DIR
"""

import sys

from orca import orca

manager = orca.getSettingsManager()
manager.activate(sys.argv[1], {})
sys.path.insert(0, manager.getPrefsDir())
sys.exit(orca.main())
