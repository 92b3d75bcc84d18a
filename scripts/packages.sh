# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian packages the build and the tests need (sourced by scripts/run, scripts/test and
# the Makefile's deps target). pulseaudio is not among them: on a desktop PipeWire's
# pipewire-pulse plays its part, and the PulseAudio tests are skipped without it (CI installs it).
# speech-dispatcher's own clients (spd-say, python3-speechd, libspeechd-dev) and gcc (the tests
# compile their C fixtures) are here for the tests, and so are a GTK 3 desktop's parts (dbus,
# at-spi2-core, xvfb, python3-gi, gir1.2-gtk-3.0: toolkit announcements) and bubblewrap (a
# sandboxed client); .ci/check-test-programs checks that every
# program a test starts is installed from this list or skipped with a note naming its package.
DEBIAN_PACKAGES="libespeak-ng-dev espeak-ng libcld2-dev libsystemd-dev libpulse-dev libasound2-dev libseccomp-dev socat pkg-config \
util-linux speech-dispatcher python3-speechd libspeechd-dev gcc systemd \
dbus at-spi2-core xvfb python3-gi gir1.2-gtk-3.0 bubblewrap"
# What `make install` and `make deb` need besides: pandoc makes the protocol's man page from
# Protocol.md (scripts/generate-docs.sh); dpkg-dev has dpkg-shlibdeps (the package's Depends).
INSTALL_PACKAGES="pandoc dpkg-dev"
# What CI (.ci/run) installs besides these and the Makefile's DESKTOP_PACKAGES, so that no suite it
# is meant to run is skipped (.ci/check-test-programs --skips): both sound servers, for the
# PulseAudio and PipeWire suites (pipewire-pulse beside pulseaudio: neither replaces the other;
# only pipewire-audio, pipewire-alsa and pipewire-audio-client-libraries would remove pulseaudio);
# sox, whose tone the two ducking suites lower; man-db, for .ci/test-deb's `man -w`; make, which
# .ci/run runs.
CI_PACKAGES="pulseaudio pulseaudio-utils pipewire wireplumber pipewire-pulse sox man-db make"

# How release builds are made (scripts/run and the Makefile's release, install, deb, bench and soak
# targets use the same flags, so they never rebuild each other's work). Plain `swift build -c
# release` builds the same programs; these are standard SwiftPM and linker options on top:
# - the Swift runtime is linked statically (--static-swift-stdlib): the installed binaries do not
#   depend on where the toolchain is;
# - the toolchain's lld links them with packed relative relocations (DT_RELR, glibc 2.36+, as in
#   Debian 12; gold, the default, cannot pack them): the position-independent daemon keeps its
#   address randomization, and its relative relocations take kilobytes instead of a megabyte that
#   the loader reads at every start and that then stays resident;
# - bound at load time (-z now) and without a dynamic symbol table of their own
#   (--no-export-dynamic; the static runtime's link options export every symbol of an executable,
#   which nothing looks up): the GOT is read-only (full RELRO), and the loader's symbol lookups do
#   not page through a megabyte of the executable's symbols;
# - the Swift code optimized for size (-Osize): the kernel maps an executable's code in 64 KiB
#   windows around each page run, so smaller code is less resident code. The daemon and its
#   espeak-ng helper idle in 0.5 MiB less (PSS), and no speed figure of `make bench` moved beyond
#   its noise (Benchmarks/README.md, "Idle memory").
RELEASE_FLAGS="-c release --static-swift-stdlib -Xswiftc -Osize -Xswiftc -use-ld=lld \
-Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker now -Xlinker --no-export-dynamic"
# announcectl, which every user installs, is linked with identical code folding on top (lld's
# --icf=all: functions whose code is the same are kept once), so that it stays within the
# 15,000,000 bytes issue 31 allows (.ci/test-deb checks it; Benchmarks/README.md has the sizes).
# Only its link differs from the other products': nothing is compiled twice.
ANNOUNCECTL_LINK_FLAGS="-Xlinker --icf=all"
