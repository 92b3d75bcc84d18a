// SPDX-License-Identifier: GPL-3.0-or-later
// libasound's PCM playback API, opened with dlopen when an ALSA output first asks for it: a
// daemon that plays through PulseAudio, a WAV folder or nothing never maps libasound. The
// functions the daemon calls are defined in shim.c under their own names, each calling the
// library's; call CALSA_load first.
#ifndef CALSA_H
#define CALSA_H

#include <alsa/asoundlib.h>
#include <stdbool.h>

/// The library opened: Debian's libasound2 (its soname).
#define CALSA_LIBRARY "libasound.so.2"

/// Opens libasound (once per process; later calls return the first answer) and replaces its own
/// error printing ("ALSA lib pcm.c: Unknown PCM default" on standard error) with none: announced
/// reports failures itself, once, in its own words. NULL when it is ready, otherwise why not
/// (dlopen's or dlsym's words), a string that lives as long as the process. Every other function
/// of this module may be called only after it returned NULL.
const char *CALSA_load(void);

/// Whether libasound is mapped in this process now (dlopen with RTLD_NOLOAD).
bool CALSA_is_loaded(void);

#endif
