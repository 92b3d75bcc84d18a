# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian packages the build and the tests need (sourced by scripts/run, scripts/test and
# the Makefile's deps target). pulseaudio is not among them: on a desktop PipeWire's
# pipewire-pulse plays its part, and the PulseAudio tests are skipped without it (CI installs it).
DEBIAN_PACKAGES="libespeak-ng-dev espeak-ng libpulse-dev libasound2-dev libseccomp-dev socat pkg-config util-linux"
# What `make install` and `make deb` need besides: pandoc makes the protocol's man page from
# Protocol.md (scripts/generate-docs.sh); dpkg-dev has dpkg-shlibdeps (the package's Depends).
INSTALL_PACKAGES="pandoc dpkg-dev"

# How release builds are made (scripts/run and the Makefile's release, install, bench and soak
# targets use the same flags, so they never rebuild each other's work):
# - the Swift runtime is linked statically: the installed binaries do not depend on where the
#   toolchain is, and the idle daemon is about 3 MB smaller in memory (only the runtime code it
#   uses is mapped);
# - the toolchain's lld links them with packed relative relocations (DT_RELR, glibc 2.36+, as in
#   Debian 12): the position-independent daemon keeps its address randomization, but its 68,000
#   relative relocations take 11 KB instead of 1.3 MB, which is about 1 MB less resident memory
#   and less work before main (gold, the default, cannot pack them; linking without PIE saved
#   0.5 MB more but gives up ASLR).
# - bound at load time (-z now) and without a dynamic symbol table of their own
#   (--no-export-dynamic; the Swift driver exports every symbol of an executable, 1.3 MB of
#   .dynsym and .dynstr that nothing looks up): no symbol lookup after start-up touches those pages
#   again, and the GOT is read-only (full RELRO);
# - the functions the idle daemon and its helper run come first, packed together
#   (scripts/function-order.txt, made by scripts/function-order.sh, which says why): once
#   start-up is over (the daemon and the helper then release their start-up pages), 1 MB of code
#   stays resident instead of 3.5 to 5 MB;
# - the constants the Swift compiler flags writable get an output section of their own
#   (scripts/rodata.ld, which says why), so the rest of .rodata stays read-only and the start-up
#   release reaches it.
# Sourced from the repository's root (the order file's path is absolute).
RELEASE_FLAGS="-c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
-Xlinker -z -Xlinker now -Xlinker --no-export-dynamic \
-Xlinker --symbol-ordering-file=$(pwd)/scripts/function-order.txt -Xlinker --no-warn-symbol-ordering \
-Xlinker -T -Xlinker $(pwd)/scripts/rodata.ld"
