// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef C_ESPEAK_NG_STATIC_H
#define C_ESPEAK_NG_STATIC_H
// espeak-ng linked statically into announced-espeak, with an audio library that has no devices
// (NoAudioDevice.c). libespeak-ng.so needs libpcaudio, which loads libpulse and about 25 more
// libraries (X11, sndfile with its codecs, systemd, gcrypt, D-Bus) into a process that never plays
// audio; without them the idle helper holds about 3.7 MB less (see Benchmarks/README.md).
#include <espeak-ng/speak_lib.h>
#endif
