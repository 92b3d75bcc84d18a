#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Compares CLD2 and libexttextcat on phrases/*.txt (Benchmarks/README.md, "Language identifiers").
# Needs: apt-get install g++ libcld2-dev libexttextcat-dev
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
g++ -O2 -std=c++17 -Wall -o "$out/compare" "$here/compare.cpp" -lcld2 -lexttextcat-2.0
"$out/compare" "$here/phrases"
