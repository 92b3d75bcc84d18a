// SPDX-License-Identifier: GPL-3.0-or-later
// The sd-bus vtable of org.freedesktop.Speech.Provider (Spiel's provider interface,
// interface/org.freedesktop.Speech.Provider.xml in project-spiel/libspeechprovider), made with
// sd-bus's own macros. Its three handlers are defined in Swift (DesktopBus, @_cdecl).
#pragma once
#include <systemd/sd-bus.h>

int announced_speech_provider_synthesize(sd_bus_message *message, void *userdata, sd_bus_error *error);
int announced_speech_provider_name(
    sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
    void *userdata, sd_bus_error *error);
int announced_speech_provider_voices(
    sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply,
    void *userdata, sd_bus_error *error);

static const sd_bus_vtable announced_speech_provider_vtable_entries[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD_WITH_NAMES(
        "Synthesize", "hssddbs",
        SD_BUS_PARAM(pipe_fd) SD_BUS_PARAM(text) SD_BUS_PARAM(voice_id) SD_BUS_PARAM(pitch) SD_BUS_PARAM(rate)
            SD_BUS_PARAM(is_ssml) SD_BUS_PARAM(language),
        "", , announced_speech_provider_synthesize, 0),
    SD_BUS_PROPERTY("Voices", "a(ssstas)", announced_speech_provider_voices, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("Name", "s", announced_speech_provider_name, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_VTABLE_END,
};

/// The vtable, for sd_bus_add_object_vtable.
static inline const sd_bus_vtable *announced_speech_provider_vtable(void) {
    return announced_speech_provider_vtable_entries;
}
