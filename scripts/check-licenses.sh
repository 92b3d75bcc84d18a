#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a target under Apache-2.0 (every file of it says so in its SPDX line) depends, directly
# or through other targets, on a target of this package under another license: the client library
# and the wire types are Apache-2.0 so that programs under any license can link them (LICENSE),
# which holds only if nothing they link is GPL. Also fails when a source file has no SPDX line.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=$(mktemp)
trap 'rm -f "$manifest"' EXIT
swift package dump-package > "$manifest"
python3 - "$manifest" <<'PY'
import glob, json, os, re, sys

package = json.load(open(sys.argv[1]))
targets = {t["name"]: t for t in package["targets"]}
problems = []

def license_of(name):
    """The one SPDX license of a target's sources; None for a system library (no sources)."""
    folder = os.path.join("Sources", name)
    files = [f for f in glob.glob(folder + "/**/*", recursive=True) if f.endswith((".swift", ".c", ".h", ".cpp"))]
    found = set()
    for path in files:
        with open(path, encoding="utf-8") as source:
            head = source.read(400)
        match = re.search(r"SPDX-License-Identifier: (\S+)", head)
        if match is None:
            if not path.endswith(("module.modulemap", ".h")):
                problems.append(f"{path}: no SPDX-License-Identifier line in its first lines")
            continue
        found.add(match.group(1))
    if len(found) > 1:
        problems.append(f"Sources/{name}: files under more than one license ({', '.join(sorted(found))})")
    return found.pop() if len(found) == 1 else None

licenses = {name: license_of(name) for name, t in targets.items() if t["type"] not in ("test", "plugin")}

def closure(name, seen):
    for dependency in targets[name]["dependencies"]:
        inner = dependency.get("byName") or dependency.get("target")
        if inner is None:
            continue  # a product of another package: its license is in scripts/debian-copyright
        other = inner[0]
        if other in targets and other not in seen:
            seen[other] = name
            closure(other, seen)
    return seen

checked = 0
for name, license in sorted(licenses.items()):
    if license != "Apache-2.0":
        continue
    checked += 1
    for other, via in closure(name, {}).items():
        if licenses.get(other) not in (None, "Apache-2.0"):
            problems.append(
                f"{name} is Apache-2.0 but links {other} ({licenses[other]}, through {via}): relicense {other} "
                f"if it holds only this project's code, or drop the dependency (LICENSE, scripts/debian-copyright)")
if problems:
    print("check-licenses:\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"check-licenses: {checked} Apache-2.0 targets link only Apache-2.0 targets of this package")
PY
