// SPDX-License-Identifier: GPL-3.0-or-later
// libpulse's asynchronous API (a threaded main loop, a context, playback streams, sink inputs),
// opened with dlopen when an output or ducking first asks for it: a daemon that plays through
// ALSA, a WAV folder or nothing never maps libpulse and the 25 libraries it links (X11, libsndfile
// and its codecs, libdbus, ...). The functions the daemon calls are defined in shim.c under their
// own names, each calling the library's; call CPulseAudio_load first.
#ifndef CPULSEAUDIO_H
#define CPULSEAUDIO_H

#include <pulse/pulseaudio.h>
#include <stdbool.h>

/// The library opened: Debian's libpulse0 (its soname).
#define CPULSEAUDIO_LIBRARY "libpulse.so.0"

/// Opens libpulse (once per process; later calls return the first answer): NULL when it is ready,
/// otherwise why not (dlopen's or dlsym's words), a string that lives as long as the process.
/// Every other function of this module may be called only after it returned NULL.
const char *CPulseAudio_load(void);

/// Whether libpulse is mapped in this process now (dlopen with RTLD_NOLOAD).
bool CPulseAudio_is_loaded(void);

#endif
