#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes announced_<version>_<arch>.deb from a tree `make install PREFIX=/usr DESTDIR=ROOT` staged
# (the Makefile's deb target calls it). Debian's own tools only, no network: dpkg-shlibdeps finds
# the Depends from the libraries the binaries link, dpkg-deb builds the archive (files owned by
# root). /etc/announced/announced.json is a conffile: an edited one survives upgrades. The
# copyright file is scripts/debian-copyright (Debian's machine-readable format), checked here
# against the Swift packages the release build linked (SCRATCH is the build folder that holds them).
# With PIPER_ROOT (a tree `make install-piper PREFIX=/usr DESTDIR=PIPER_ROOT` staged) it also makes
# announced-piper_<version>_<arch>.deb: the Piper engine helper and the engine's libraries from the
# pinned wheel, under /usr/lib/announced, with their licenses in its copyright file.
# Usage: scripts/build-deb.sh ROOT OUTDIR [SCRATCH [PIPER_ROOT]]
set -euo pipefail
root=$1
outdir=$2
scratch=${3:-.build}
piper_root=${4:-}
cd "$(dirname "$0")/.."

version=$("$root/usr/bin/announced" --version)
arch=$(dpkg --print-architecture)
maintainer=$(git log -1 --format='%an <%ae>' 2>/dev/null || echo "announced maintainers <announced@localhost>")

# Debian's layout: binaries without their symbol tables and debug information (as dh_strip
# does), man pages compressed, and a changelog beside the documentation (changelog.gz: the
# version has no Debian revision, so this is a native package).
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
    "$root/usr/bin/announced" "$root/usr/bin/announcectl" "$root/usr/libexec/announced/announced-espeak"
find "$root/usr/share/man" -type f ! -name '*.gz' -exec gzip -9n {} +
doc="$root/usr/share/doc/announced"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
changelog="$work/changelog"
printf 'announced (%s) unstable; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' \
    "$version" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$maintainer" \
    "$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" > "$changelog"
gzip -9n < "$changelog" > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

# Every Swift package the binaries link needs its paragraph in the copyright file: the packages
# are read from the sources of the modules whose objects the links took (a Swift module's
# output-file-map.json, a C module's dependency files), in the build's checkouts.
packages=$(cat "$scratch"/release/{announced,announced-espeak,announcectl}.product/Objects.LinkFileList \
    | xargs -n1 dirname | sort -u \
    | while read -r module; do cat "$module"/output-file-map.json "$module"/*.d 2>/dev/null || true; done \
    | grep -o '/checkouts/[^/]*/' | cut -d/ -f3 | sort -u)
[ -n "$packages" ] || { echo "build-deb: found no Swift package in the links of $scratch/release" >&2; exit 1; }
for package in $packages; do
    grep -qxF "Files: .build/checkouts/$package/*" scripts/debian-copyright \
        || { echo "build-deb: the binaries link $package, which scripts/debian-copyright does not name: add its paragraph (copyright and license from $scratch/checkouts/$package)" >&2; exit 1; }
done
echo "build-deb: the copyright file names every Swift package linked: $(echo $packages)"
install -m 0644 scripts/debian-copyright "$doc/copyright"

# dpkg-shlibdeps reads debian/control and works from the package's directory.
mkdir -p "$work/debian"
printf 'Source: announced\n\nPackage: announced\nArchitecture: any\n' > "$work/debian/control"
binaries=("$root/usr/bin/announced" "$root/usr/bin/announcectl" "$root/usr/libexec/announced/announced-espeak")
for index in "${!binaries[@]}"; do binaries[index]=$(realpath "${binaries[index]}"); done
# Prints the Depends of the binaries given (absolute paths), from dpkg-shlibdeps.
shlib_depends() {
    local found versions
    found=$(cd "$work" && dpkg-shlibdeps -O "$@" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
    [ -n "$found" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies of $*" >&2; exit 1; }
    # Release builds pack their relocations (DT_RELR, scripts/packages.sh): the loader must be glibc
    # 2.36 or newer (the binaries need GLIBC_ABI_DT_RELR). dpkg-shlibdeps looks only at the symbols
    # they use, which ask for less, so an older glibc would install them and then refuse to run them.
    versions=$(readelf -V "$@")
    if grep -q GLIBC_ABI_DT_RELR <<< "$versions"; then
        found=$(sed 's/libc6 (>= [^)]*)/libc6 (>= 2.36)/' <<< "$found")
    fi
    echo "$found"
}
depends=$(shlib_depends "${binaries[@]}")
# The daemon opens three libraries with dlopen when a setting first needs them, so dpkg-shlibdeps
# cannot see them: libcld2.so.0 for `language_switching: detect` (LanguageRuns' CLD2Shim),
# libpulse.so.0 and libasound.so.2 for the pulse and alsa outputs and ducking (CPulseAudio, CALSA).
# Each one's package and version come from its package's own shlibs file, as dpkg-shlibdeps would
# have read them for a linked library.
dlopened_depend() { # PACKAGE LIBRARY SOVERSION
    local shlibs found
    shlibs=$(dpkg-query --control-path "$1" shlibs)
    found=$(awk -v library="$2" -v soversion="$3" \
        '$1 == library && $2 == soversion { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' "$shlibs")
    [ -n "$found" ] || { echo "build-deb: $shlibs names no $2.so.$3" >&2; exit 1; }
    grep -q "\b$1\b" <<< "$depends" || depends="$depends, $found"
}
dlopened_depend libcld2-0 libcld2 0
dlopened_depend libpulse0 libpulse 0
dlopened_depend libasound2 libasound 2

# The user units `make install` staged, each one a file the package must carry.
for unit in announced.service announced.socket announced-ssip.socket; do
    [ -f "$root/usr/lib/systemd/user/$unit" ] || { echo "build-deb: $root/usr/lib/systemd/user/$unit is missing" >&2; exit 1; }
done
# The Spiel provider's D-Bus activation file, naming the user unit in SystemdService=.
activation="$root/usr/share/dbus-1/services/org.announced.Speech.Provider.service"
grep -q '^SystemdService=announced.service$' "$activation" 2>/dev/null \
    || { echo "build-deb: $activation is missing or names no SystemdService" >&2; exit 1; }

install -d -m 0755 "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<EOF
Package: announced
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Recommends: pipewire-pulse | pulseaudio
Suggests: socat, curl
Section: sound
Priority: optional
Description: speech announcements for apps and scripts, with honest outcomes
 announced is a per-user daemon that speaks short announcements with espeak-ng
 for programs that post them as JSON lines on a Unix socket, and tells each
 program how its announcement ended (heard to the end, interrupted, cancelled,
 muted, dropped). announcectl speaks from the shell, like spd-say.
 .
 Enable it for your user with:
   systemctl --user enable --now announced.socket
 To serve speech-dispatcher's clients (Orca, spd-say) too, on their socket:
   systemctl --user enable --now announced-ssip.socket
EOF
printf '/etc/announced/announced.json\n' > "$root/DEBIAN/conffiles"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles"

mkdir -p "$outdir"
# xz at level 1: the default level 6 makes the package only a little smaller for several times the
# CPU time (in CI too).
dpkg-deb --root-owner-group -Zxz -z1 --build "$root" "$outdir/announced_${version}_${arch}.deb"

[ -n "$piper_root" ] || exit 0

# announced-piper: the helper and the engine's two libraries from the wheel (the C API library finds
# ONNX Runtime beside itself by its $ORIGIN rpath), all stripped as above (the wheel's keep their
# symbol tables).
helper="$piper_root/usr/lib/announced/announced-piper"
engine="$piper_root/usr/lib/announced/piper"
for path in "$helper" "$engine/libsherpa-onnx-c-api.so" "$engine/libonnxruntime.so"; do
    [ -f "$path" ] || { echo "build-deb: $path is missing (make install-piper stages it)" >&2; exit 1; }
done
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
    "$helper" "$engine/libsherpa-onnx-c-api.so" "$engine/libonnxruntime.so"
piper_doc="$piper_root/usr/share/doc/announced-piper"
install -d -m 0755 "$piper_doc"
sed 's/^announced (/announced-piper (/' "$changelog" | gzip -9n > "$piper_doc/changelog.gz"
# The copyright file: the base package's header, its paragraphs for our own files and the Swift
# runtime (the helper links no other Swift package), the engine's paragraphs, then the licenses.
awk -v piper=scripts/debian-copyright-piper 'BEGIN { RS = ""; ORS = "\n\n" }
    NR == 1 || /^Files: \*\n/ || /^Files: usr\/lib\/swift_static/ { print; next }
    /^License:/ { licenses = licenses $0 "\n\n" }
    END {
        RS = "\n"
        while ((getline line < piper) > 0) if (line !~ /^#/) printf "%s\n", line
        printf "\n%s", licenses
    }' scripts/debian-copyright | sed '$ { /^$/d }' > "$piper_doc/copyright"
chmod 0644 "$piper_doc/changelog.gz" "$piper_doc/copyright"
piper_depends=$(shlib_depends "$(realpath "$helper")" "$(realpath "$engine/libsherpa-onnx-c-api.so")" "$(realpath "$engine/libonnxruntime.so")")
install -d -m 0755 "$piper_root/DEBIAN"
cat > "$piper_root/DEBIAN/control" <<EOF
Package: announced-piper
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$piper_root" | cut -f1)
Depends: announced (= $version), $piper_depends
Section: sound
Priority: optional
Description: natural Piper voices for announced
 The neural speech engine announced speaks Piper voices with: its
 sandboxed helper process, and sherpa-onnx's C API with ONNX Runtime
 (from sherpa-onnx-core 2.0.1). No voice is included: install one
 (a .onnx with its .onnx.json) with
   announcectl voices install URL-OR-FILE
 and choose it by name:
   announcectl say --voice en_us-joe-medium "Hello"
EOF
chmod 0644 "$piper_root/DEBIAN/control"
dpkg-deb --root-owner-group -Zxz -z1 --build "$piper_root" "$outdir/announced-piper_${version}_${arch}.deb"
