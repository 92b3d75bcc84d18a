#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when one of the binaries given links Foundation or ICU, statically or as a shared library:
# what a user installs (announced, announcectl and the engine helpers) does without them, and
# Foundation with ICU is most of a statically linked Swift binary. FoundationEssentials (which
# swift-argument-parser imports, without ICU) is allowed. Reads the binaries' symbol tables, so give
# the unstripped release products ($(SCRATCH)/release), not the stripped copies a package holds.
# Usage: scripts/check-no-foundation.sh BINARY...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
failed=0
for binary in "$@"; do
    [ -f "$binary" ] || { echo "check-no-foundation: $binary does not exist; build it first (make release)" >&2; exit 1; }
    needed=$(readelf --dynamic "$binary" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
    shared=$(grep -Ei '^lib(Foundation|FoundationNetworking|FoundationInternationalization|_FoundationICU|icu)' <<< "$needed" || true)
    # nm prints nothing for a stripped binary: that would pass without looking, so refuse it.
    symbols=$(nm --defined-only "$binary" 2>/dev/null || true)
    if [ -z "$symbols" ]; then
        echo "check-no-foundation: $binary has no symbol table (stripped?); give the unstripped build product" >&2
        exit 1
    fi
    # Swift symbols of the Foundation, FoundationNetworking, FoundationInternationalization and
    # _FoundationICU modules (mangled with the module name's length), ICU's C++ classes (namespace
    # icu_NN) and its C functions (u_strlen, ucol_open..., bare or with swift-foundation-icu's
    # swift_ prefix).
    found=$(awk '{ print $NF }' <<< "$symbols" | grep -E \
        -e '^\$s(10Foundation|20FoundationNetworking|31FoundationInternationalization|14_FoundationICU)' \
        -e '^_Z.*N6icu_[0-9]+' \
        -e '^(swift_)?(u|ucol|ubrk|ucal|udat|unum|uloc|ures|ucnv|unorm2|uregex|utrans|usearch|uidna|utext|uset|uenum)_[A-Za-z0-9]+$' \
        || true)
    count=$(grep -c . <<< "$found" || true)
    if [ -n "$shared" ] || [ "$count" -gt 0 ]; then
        echo "check-no-foundation: $binary links Foundation or ICU:" \
            "${shared:+shared libraries: $(echo $shared); }$count symbols, e.g. $(head -3 <<< "$found" | tr '\n' ' ')" >&2
        echo "  Find the import that brings it: grep -rn 'import Foundation' Sources; use Glibc, swift-system or AnnouncePOSIX instead." >&2
        failed=1
    else
        echo "check-no-foundation: $(basename "$binary"): no Foundation, no ICU ($(du -h "$binary" | cut -f1))"
    fi
done
exit $failed
