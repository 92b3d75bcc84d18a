#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the `piper` command line of PyPI's piper-tts (the Piper pipeline users run today:
# `piper -m VOICE --output-raw | paplay --raw ...`) into a private virtual environment, for
# announced-bench's figure 14, which compares it with announced. Never into the system's Python.
#
# Usage: scripts/fetch-piper-cli.sh [VENV_DIR]   (default .build/piper-cli; the command is then
#        VENV_DIR/bin/piper, where announced-bench looks for it)
# Running it again is safe: an existing environment with the pinned version is kept.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION="1.8.0"
VENV_DIR="${1:-.build/piper-cli}"

if [ -x "$VENV_DIR/bin/piper" ] && "$VENV_DIR/bin/python" -m pip show piper-tts 2>/dev/null | grep -qx "Version: $VERSION"; then
    echo "fetch-piper-cli: piper-tts $VERSION already in $VENV_DIR"
    exit 0
fi
python3 -m venv --help >/dev/null 2>&1 \
    || { echo "fetch-piper-cli: python3's venv module is missing: sudo apt-get install python3-venv" >&2; exit 1; }
rm -rf "$VENV_DIR"
python3 -m venv "$VENV_DIR"
"$VENV_DIR/bin/python" -m pip install --quiet --disable-pip-version-check "piper-tts==$VERSION" \
    || { echo "fetch-piper-cli: pip could not install piper-tts==$VERSION (is PyPI reachable?)" >&2; exit 1; }
echo "fetch-piper-cli: $VENV_DIR/bin/piper (piper-tts $VERSION)"
