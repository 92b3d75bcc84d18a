#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Starts announced on a private socket, makes it speak one announcement, prints the daemon's
# answer lines (queued, started, finished), and stops it.
set -euo pipefail
bin="${1:-.build/release}"
dir="$(mktemp -d)"
socket="$dir/announced.sock"
trap 'kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT

"$bin/announced" --socket "$socket" --audio "${AUDIO:-auto}" &
pid=$!
for _ in $(seq 200); do
    [ -S "$socket" ] && break
    kill -0 "$pid" 2>/dev/null || { echo "announced did not start" >&2; exit 1; }
    sleep 0.05
done

request='{"op":"announce","id":1,"text":"Hello from announced. Your download is complete."}'
echo "> $request"
printf '%s\n' "$request" | socat -t 15 - "UNIX-CONNECT:$socket" | sed 's/^/< /'
