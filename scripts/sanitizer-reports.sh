#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# sanitizer-reports.sh DIR [LOG...]: exits 1, printing them, when a sanitizer reported something
# during a `make tsan` or `make asan` run; 0 when nothing did.
#
# A report is either a file in DIR (the run puts log_path=DIR/report in ASAN_OPTIONS and
# TSAN_OPTIONS, so every instrumented process it starts writes its reports there, whoever holds
# its stderr: the test runner, the daemons, their espeak-ng helpers, announcectl, daemons spawned
# in the background with their log in a file), or a report's first line in one of the LOG files
# (the output of a process that did not get those options).
set -u
dir=$1
shift
found=0
for report in "$dir"/report.*; do
    [ -e "$report" ] || continue
    echo "== sanitizer report $report:"
    cat "$report"
    found=1
done
for log in "$@"; do
    if grep -E 'WARNING: ThreadSanitizer:|ERROR: (Address|Thread|Leak)Sanitizer:|runtime error:' "$log"; then
        echo "== a sanitizer report in $log (above)"
        found=1
    fi
done
exit $found
