// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef ANNOUNCED_CESPEAKNOAUDIODEVICE_H
#define ANNOUNCED_CESPEAKNOAUDIODEVICE_H

// An engine helper's stand-in for pcaudio, the audio library libespeak-ng links: the helper
// executable answers to pcaudio's soname, so the dynamic linker never loads libpcaudio and what it
// links (libpulse and its 25 libraries, libasound), and espeak-ng's initialization connects to no
// sound server (no_audio_device.c says why and how).

#include <stddef.h>
#include <stdint.h>

struct audio_object;

/// pcaudio's functions (pcaudiolib/audio.h; `format` is its `enum audio_object_format`), defined
/// by the helper: no device, ever.
struct audio_object *create_audio_device_object(const char *device, const char *application_name, const char *description);
int audio_object_open(struct audio_object *object, int format, uint32_t rate, uint8_t channels);
void audio_object_close(struct audio_object *object);
void audio_object_destroy(struct audio_object *object);
int audio_object_write(struct audio_object *object, const void *data, size_t bytes);
int audio_object_drain(struct audio_object *object);
int audio_object_flush(struct audio_object *object);
const char *audio_object_strerror(struct audio_object *object, int error);

#endif
