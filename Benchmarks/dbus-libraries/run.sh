#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# sd-bus against libdbus for announced's D-Bus connections (Benchmarks/README.md, "D-Bus
# libraries"): GetNameOwner round trips on a private session bus, blocking and driven by poll,
# ROUNDS runs of N calls each, the two libraries taking turns (the median and fastest runs are printed), and what linking each costs.
# Needs gcc, dbus, libsystemd-dev, libdbus-1-dev. Usage: run.sh [N] [ROUNDS]
set -euo pipefail
N=${1:-1000}
ROUNDS=${2:-7}
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d /tmp/announced-dbus-bench.XXXXXX)
bus_pid=
cleanup() { [ -n "$bus_pid" ] && kill -KILL "$bus_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$out"; }
trap cleanup EXIT
gcc -O2 -o "$out/sdbus" "$here/sdbus.c" $(pkg-config --cflags --libs libsystemd)
gcc -O2 -o "$out/libdbus" "$here/libdbus.c" $(pkg-config --cflags --libs dbus-1)
dbus-daemon --session --nofork --nosyslog --address="unix:path=$out/bus" --print-address=1 > "$out/address" 2> "$out/bus.log" &
bus_pid=$!
until [ -s "$out/address" ]; do sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS="unix:path=$out/bus"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
fastest() { sort -n | head -1; }
# The two programs take turns, so that both meet the same load on a shared machine.
for _ in $(seq "$ROUNDS"); do
    "$out/sdbus" "$N" >> "$out/sdbus.runs"
    "$out/libdbus" "$N" >> "$out/libdbus.runs"
done
for program in sdbus libdbus; do
    case $program in sdbus) pattern=libsystemd ;; libdbus) pattern=libdbus ;; esac
    blocking=$(awk '{ print $3 }' "$out/$program.runs" | median)
    polled=$(awk '{ print $6 }' "$out/$program.runs" | median)
    blocking_min=$(awk '{ print $3 }' "$out/$program.runs" | fastest)
    polled_min=$(awk '{ print $6 }' "$out/$program.runs" | fastest)
    library=$(ldd "$out/$program" | awk -v p="$pattern" '$1 ~ p { print $3 }')
    size=$(stat -L -c %s "$library")
    # The libraries each one brings into the process besides glibc's own.
    extra=$(ldd "$library" | awk '{ print $1 }' | grep -v -E '^(linux-vdso|/lib64/ld-linux|libc\.so|libm\.so)' | tr '\n' ' ')
    # Peak memory of one process that connects and makes N blocking and N polled calls.
    rss=$( { /usr/bin/time -f '%M' "$out/$program" "$N" > /dev/null; } 2>&1 )
    echo "$program: median (fastest) of $ROUNDS runs: blocking ${blocking} (${blocking_min}) us, polled ${polled} (${polled_min}) us" \
        "per round trip; $(basename "$library") $((size / 1024)) KiB, also loads: ${extra:-nothing}; peak RSS ${rss} KiB"
done
