#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates scripts/function-order.txt, the order release links give the functions of
# `announced` and `announced-espeak` (lld's --symbol-ordering-file, RELEASE_FLAGS in
# scripts/packages.sh): the functions an idle daemon and its helper run while serving and speaking
# come first, packed together, and everything else (start-up, rare requests) after them.
#
# Why: the kernel maps a program's code 64 KiB at a time around each page it touches
# (fault-around), so the resident code of a process is every 64 KiB window holding something it
# ran. The ~450 KB of code the daemon runs after start-up was spread over 13 MB of .text, and
# 64 KiB windows around it kept 3.5 to 5 MB resident; packed, it fits in about 1 MB. The list only
# steers the layout: a function missing from it (new or renamed since) still links, it just lands
# among the cold ones. Re-run this after large changes to the serving or speaking path. SwiftPM
# does not know the list is an input of the link: remove .build/release/announced and
# announced-espeak after changing it, so the next release build links them again.
#
# How: both release binaries run under valgrind's callgrind (copies without their DWARF 5 debug
# information, which valgrind 3.19 cannot read); the counters are zeroed once the daemon serves,
# a workload of posts and requests runs, and the functions that ran are those with counts. Needs
# valgrind and socat. Usage: scripts/function-order.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in valgrind callgrind_control socat objcopy nm; do
    command -v "$tool" >/dev/null || { echo "function-order.sh needs $tool (apt-get install valgrind socat binutils)" >&2; exit 1; }
done
. scripts/packages.sh
# Linked without the current order, so the profile does not depend on the list it replaces, and
# without scripts/rodata.ld: valgrind 3.19 crashes (SIGSEGV in its own code) once the daemon has
# released its read-only .rodata; where the constants lie does not change which functions run.
flags=${RELEASE_FLAGS/-Xlinker --symbol-ordering-file=*-Xlinker --no-warn-symbol-ordering/}
flags=${flags/-Xlinker -T -Xlinker *rodata.ld/}
# shellcheck disable=SC2086
swift build $flags --product announced
# shellcheck disable=SC2086
swift build $flags --product announced-espeak
release=$(swift build $flags --show-bin-path)

work=$(mktemp -d)
daemon=
cleanup() {
    if [ -n "$daemon" ]; then
        kill "$daemon" 2>/dev/null
        wait "$daemon" 2>/dev/null
        # The helper writes its last profile as it exits, after the daemon.
        sleep 2
    fi
    rm -rf "$work"
}
trap cleanup EXIT
objcopy --strip-debug "$release/announced" "$work/announced"
objcopy --strip-debug "$release/announced-espeak" "$work/announced-espeak.bin"
cat >"$work/announced-espeak" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --demangle=no --callgrind-out-file=$work/helper.%p $work/announced-espeak.bin 2>>$work/valgrind.log
EOF
chmod +x "$work/announced-espeak"

socket="$work/socket"
ANNOUNCED_ESPEAK_HELPER="$work/announced-espeak" valgrind --tool=callgrind --demangle=no \
    --callgrind-out-file="$work/daemon.%p" "$work/announced" --socket "$socket" --audio null --log-level error \
    2>>"$work/valgrind.log" &
daemon=$!
for _ in $(seq 120); do [ -S "$socket" ] && break; sleep 0.5; done
[ -S "$socket" ] || { echo "the daemon did not start under valgrind:" >&2; cat "$work/valgrind.log" >&2; exit 1; }
sleep 2
callgrind_control --zero >/dev/null 2>&1

# What a daemon does while it serves: a client says hello and asks for status, posts queue and
# interrupt each other (with word events, marks, another voice, spelling, punctuation), elements
# get focus, a post is cancelled, defaults change. Each request waits for its answer.
coproc client { socat - "UNIX-CONNECT:$socket"; }
send() { echo "$1" >&"${client[1]}"; }
# Reads the daemon's lines until request $1 has its last one (ok, error, finished or dropped).
await() {
    local line
    while IFS= read -r -t 120 line <&"${client[0]}"; do
        echo "$line" >>"$work/replies"
        case "$line" in *'"id":'"$1"[,}]*) case "$line" in *'"event":"ok"'* | *'"event":"error"'* | *'"event":"finished"'* | *'"event":"dropped"'*) return 0 ;; esac ;; esac
    done
    echo "no answer to request $1 under valgrind; the daemon's lines:" >&2
    cat "$work/replies" >&2
    exit 1
}
send '{"op":"hello","id":1,"client":"function-order"}'; await 1
send '{"op":"status","id":2}'; await 2
send '{"op":"subscribe","id":3,"events":["status","focus","speech"]}'; await 3
for id in $(seq 10 25); do
    send "{\"op\":\"announce\",\"id\":$id,\"text\":\"Saved report $id of 25, 3.5 MB, in Documents.\",\"words\":true}"
    await "$id"
done
send '{"op":"announce","id":30,"text":"A long announcement that the next one interrupts, somewhere in its middle, before it ends."}'
sleep 1
send '{"op":"announce","id":31,"text":"Battery low","priority":"high"}'; await 30; await 31
send '{"op":"announce","id":32,"text":"<speak>First <mark name=\"m1\"/> second</speak>","ssml":true}'; await 32
send '{"op":"announce","id":33,"text":"Hallo Welt","voice":"de"}'; await 33
send '{"op":"announce","id":34,"text":"OK?","spell":true,"punctuation":"all"}'; await 34
send '{"op":"focus","id":35,"element":{"id":"save","label":"Save","traits":["button"]}}'; await 35
send '{"op":"announce","id":36,"text":"A post that is cancelled while it speaks, long enough to be cancelled."}'
sleep 1
send '{"op":"cancel","id":37,"target":36}'; await 37; await 36
send '{"op":"set","id":38,"rate":200}'; await 38
send '{"op":"announce","id":39,"text":"Done"}'; await 39
callgrind_control --dump >/dev/null 2>&1
sleep 1

# The functions that ran, busiest first: by the number of calls since the counters were zeroed
# (a function that ran without being called in that time, such as an event loop's, counts as the
# busiest). Per post functions come first, those of rare requests last, so the busy ones end up
# in as few 64 KiB windows as possible.
ranked() {
    awk '
        function resolve(spec,    id, rest) {
            if (match(spec, /^\([0-9]+\)/)) {
                id = substr(spec, 2, RLENGTH - 2); rest = substr(spec, RLENGTH + 1); sub(/^ /, "", rest)
                if (rest != "") names[FILENAME, id] = rest
                return names[FILENAME, id]
            }
            return spec
        }
        /^fn=/ { fn = resolve(substr($0, 4)); ran[fn] = 1; next }
        /^cfn=/ { cfn = resolve(substr($0, 5)); next }
        /^calls=/ { split(substr($0, 7), parts, " "); calls[cfn] += parts[1]; ran[cfn] = 1; next }
        END {
            top = 0
            for (f in calls) if (calls[f] > top) top = calls[f]
            for (f in ran) print (f in calls ? calls[f] : top + 1), f
        }
    ' "$@" | sort -k1,1nr -k2,2
}
# Names the binary defines once: a local helper that many objects define under one name
# (outlined copies, value witnesses) would pull the sections of all of them to the front.
defined_once() { nm --defined-only "$1" | awk '{print $3}' | sort | uniq -u; }
# The ranked names of profile files $2... that binary $1 defines once, in rank order.
hot() {
    local binary=$1
    shift
    ranked "$@" | awk 'NR == FNR { once[$1] = 1; next } ($2 in once) { print $2 }' <(defined_once "$binary") -
}
hot "$work/announced" "$work"/daemon.*.* >"$work/daemon-hot"
hot "$work/announced-espeak.bin" "$work"/helper.*.* | awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$work/daemon-hot" - >"$work/helper-hot"
{
    echo "# Generated by scripts/function-order.sh (see there): the functions announced runs after start-up,"
    echo "# busiest first, then those only announced-espeak runs. lld ignores names a binary does not have."
    cat "$work/daemon-hot" "$work/helper-hot"
} >scripts/function-order.txt
echo "scripts/function-order.txt: $(wc -l <"$work/daemon-hot") functions of announced, $(wc -l <"$work/helper-hot") more of announced-espeak"
