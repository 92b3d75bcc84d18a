// SPDX-License-Identifier: GPL-3.0-or-later
// espeak-ng 1.51's espeak_ng_InitializeOutput asks pcaudio for an audio device whatever the output
// mode, though its synchronous mode (the helpers': the samples go to a callback) never uses one,
// and pcaudio's PulseAudio backend finds out whether the sound server is there by connecting to
// it: at every start of a helper libpulse read its configuration, tried to create
// ~/.config/pulse, opened a socket and connected to the user's sound server. Loading libpcaudio
// also mapped libpulse, libasound and the 25 libraries libpulse links (X11, libsndfile and its
// codecs, libdbus, ...), about 1.7 MiB of each helper's memory.
//
// So the helper takes pcaudio's place. Its link gives the executable pcaudio's soname
// (`-soname libpcaudio.so.0`, Package.swift): glibc's dynamic linker satisfies a library's
// DT_NEEDED with any object already loaded under that soname, the executable included, so
// libespeak-ng's libpcaudio.so.0 is the helper itself, and its calls bind to the definitions
// below (the linker exports them because libespeak-ng refers to them). With no device espeak-ng
// runs as before in synchronous mode, which touches none (only its audio-playing modes do), and
// initialization runs inside the helper's Landlock rules, which would refuse libpulse its
// configuration (and log "Failed to create secure directory").
// Written by hand because it is the absence of a library: no package offers one.
#include "CEspeakNoAudioDevice.h"

#include <errno.h>

struct audio_object *create_audio_device_object(const char *device, const char *application_name, const char *description) {
    (void)device;
    (void)application_name;
    (void)description;
    return NULL;
}

// espeak-ng calls the rest only with the device the function above never makes; each says so.
int audio_object_open(struct audio_object *object, int format, uint32_t rate, uint8_t channels) {
    (void)object;
    (void)format;
    (void)rate;
    (void)channels;
    return ENODEV;
}

void audio_object_close(struct audio_object *object) { (void)object; }

void audio_object_destroy(struct audio_object *object) { (void)object; }

int audio_object_write(struct audio_object *object, const void *data, size_t bytes) {
    (void)object;
    (void)data;
    (void)bytes;
    return ENODEV;
}

int audio_object_drain(struct audio_object *object) {
    (void)object;
    return ENODEV;
}

int audio_object_flush(struct audio_object *object) {
    (void)object;
    return ENODEV;
}

const char *audio_object_strerror(struct audio_object *object, int error) {
    (void)object;
    (void)error;
    return "announced's engine helpers have no audio device";
}
