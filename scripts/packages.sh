# The Debian packages the build and the tests need (sourced by scripts/run, scripts/test and
# the Makefile's deps target). pulseaudio is not among them: on a desktop PipeWire's
# pipewire-pulse plays its part, and the PulseAudio tests are skipped without it (CI installs it).
DEBIAN_PACKAGES="libespeak-ng-dev espeak-ng libpulse-dev libasound2-dev socat pkg-config util-linux"
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
RELEASE_FLAGS="-c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs"
