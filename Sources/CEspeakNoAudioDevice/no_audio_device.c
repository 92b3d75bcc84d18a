// SPDX-License-Identifier: GPL-3.0-or-later
// espeak-ng 1.51's espeak_ng_InitializeOutput asks pcaudio for an audio device whatever the output
// mode, though its synchronous mode (the helper's: the samples go to a callback) never uses one,
// and pcaudio's PulseAudio backend finds out whether the sound server is there by connecting to
// it: at every start of the helper libpulse read its configuration, tried to create
// ~/.config/pulse, opened a socket and connected to the user's sound server (a playback stream
// opened and closed when one runs). This definition takes the place of pcaudio's: an executable's
// own symbols come first when the dynamic linker binds a library's calls, and the linker exports
// this one because libespeak-ng refers to it. With no device espeak-ng runs as before in
// synchronous mode, which reads none (it touches the device only in its audio-playing modes), and
// libpulse is never called: initialization runs inside the helper's Landlock rules, which would
// refuse libpulse its configuration (and log "Failed to create secure directory").
// Written by hand because it is the absence of a function: no package offers one.
#include "CEspeakNoAudioDevice.h"

#include <stddef.h>

struct audio_object *create_audio_device_object(const char *device, const char *application_name, const char *description) {
    (void)device;
    (void)application_name;
    (void)description;
    return NULL;
}
