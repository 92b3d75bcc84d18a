// SPDX-License-Identifier: GPL-3.0-or-later
// pcaudiolib's entry points as a library that finds no audio device. espeak-ng 1.51 calls
// create_audio_device_object when it is initialized, whatever the output mode; a NULL answer is
// what it gets on a machine without sound, and in synchronous mode it never calls the others.
#include <stddef.h>
#include <stdint.h>

struct audio_object;

struct audio_object *create_audio_device_object(const char *device, const char *application, const char *description) {
    (void)device;
    (void)application;
    (void)description;
    return NULL;
}

int audio_object_open(struct audio_object *object, int format, uint32_t rate, uint8_t channels) {
    (void)object;
    (void)format;
    (void)rate;
    (void)channels;
    return -1;
}

void audio_object_close(struct audio_object *object) { (void)object; }

void audio_object_destroy(struct audio_object *object) { (void)object; }

int audio_object_write(struct audio_object *object, const void *data, size_t bytes) {
    (void)object;
    (void)data;
    (void)bytes;
    return -1;
}

int audio_object_drain(struct audio_object *object) {
    (void)object;
    return -1;
}

int audio_object_flush(struct audio_object *object) {
    (void)object;
    return -1;
}

const char *audio_object_strerror(struct audio_object *object, int error) {
    (void)object;
    (void)error;
    return "no audio device (announced-espeak never plays audio)";
}
