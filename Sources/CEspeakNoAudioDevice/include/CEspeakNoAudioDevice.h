// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef ANNOUNCED_CESPEAKNOAUDIODEVICE_H
#define ANNOUNCED_CESPEAKNOAUDIODEVICE_H

// announced-espeak's stand-in for pcaudio's audio device, so that espeak-ng's initialization
// connects to no sound server (no_audio_device.c says why and how).

struct audio_object;

/// pcaudio's function (pcaudiolib/audio.h), defined by announced-espeak: no device, ever. The
/// dynamic linker binds libespeak-ng's call to this definition rather than libpcaudio's.
struct audio_object *create_audio_device_object(const char *device, const char *application_name, const char *description);

#endif
