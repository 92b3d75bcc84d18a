# The Debian packages the build and the tests need (sourced by scripts/run, scripts/test and
# the Makefile's deps target). pulseaudio is not among them: on a desktop PipeWire's
# pipewire-pulse plays its part, and the PulseAudio tests are skipped without it (CI installs it).
DEBIAN_PACKAGES="libespeak-ng-dev espeak-ng libpulse-dev libasound2-dev socat pkg-config util-linux"
