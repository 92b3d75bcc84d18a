// SPDX-License-Identifier: GPL-3.0-or-later
// See include/CPulseAudio.h. Each function the daemon calls is defined here by its own name and
// prototype (the compiler checks both against libpulse's headers) and calls the library's, found
// by dlsym when CPulseAudio_load runs. Written by hand: Debian ships no loader for libpulse, and
// the list is the 42 calls the daemon and its tests make; a call the list lacks fails the link.
#include "CPulseAudio.h"

#include "CLibraryLoader.h"


// X(return type, name, parameters, arguments)
#define CPULSEAUDIO_FUNCTIONS(X, V)                                                                                  \
    X(int, pa_context_connect, (pa_context * c, const char *server, pa_context_flags_t flags, const pa_spawn_api *api), \
      (c, server, flags, api))                                                                                       \
    V(pa_context_disconnect, (pa_context * c), (c))                                                                  \
    X(int, pa_context_errno, (const pa_context *c), (c))                                                             \
    X(pa_operation *, pa_context_get_sink_input_info,                                                                \
      (pa_context * c, uint32_t idx, pa_sink_input_info_cb_t cb, void *userdata), (c, idx, cb, userdata))           \
    X(pa_operation *, pa_context_get_sink_input_info_list, (pa_context * c, pa_sink_input_info_cb_t cb, void *userdata), \
      (c, cb, userdata))                                                                                             \
    X(pa_context_state_t, pa_context_get_state, (const pa_context *c), (c))                                          \
    X(pa_context *, pa_context_new, (pa_mainloop_api * mainloop, const char *name), (mainloop, name))                \
    X(pa_time_event *, pa_context_rttime_new,                                                                        \
      (const pa_context *c, pa_usec_t usec, pa_time_event_cb_t cb, void *userdata), (c, usec, cb, userdata))        \
    X(pa_operation *, pa_context_set_sink_input_volume,                                                              \
      (pa_context * c, uint32_t idx, const pa_cvolume *volume, pa_context_success_cb_t cb, void *userdata),         \
      (c, idx, volume, cb, userdata))                                                                                \
    V(pa_context_set_state_callback, (pa_context * c, pa_context_notify_cb_t cb, void *userdata), (c, cb, userdata)) \
    V(pa_context_set_subscribe_callback, (pa_context * c, pa_context_subscribe_cb_t cb, void *userdata),             \
      (c, cb, userdata))                                                                                             \
    X(pa_operation *, pa_context_subscribe,                                                                          \
      (pa_context * c, pa_subscription_mask_t m, pa_context_success_cb_t cb, void *userdata), (c, m, cb, userdata)) \
    V(pa_context_unref, (pa_context * c), (c))                                                                       \
    X(pa_operation_state_t, pa_operation_get_state, (const pa_operation *o), (o))                                    \
    V(pa_operation_unref, (pa_operation * o), (o))                                                                   \
    X(const char *, pa_proplist_gets, (const pa_proplist *p, const char *key), (p, key))                             \
    X(pa_usec_t, pa_rtclock_now, (void), ())                                                                         \
    X(int, pa_stream_connect_playback,                                                                               \
      (pa_stream * s, const char *dev, const pa_buffer_attr *attr, pa_stream_flags_t flags, const pa_cvolume *volume, \
       pa_stream *sync_stream),                                                                                      \
      (s, dev, attr, flags, volume, sync_stream))                                                                    \
    X(pa_operation *, pa_stream_cork, (pa_stream * s, int b, pa_stream_success_cb_t cb, void *userdata),             \
      (s, b, cb, userdata))                                                                                          \
    X(pa_operation *, pa_stream_flush, (pa_stream * s, pa_stream_success_cb_t cb, void *userdata), (s, cb, userdata)) \
    X(int, pa_stream_get_latency, (pa_stream * s, pa_usec_t * r_usec, int *negative), (s, r_usec, negative))         \
    X(pa_stream_state_t, pa_stream_get_state, (const pa_stream *p), (p))                                             \
    X(pa_stream *, pa_stream_new, (pa_context * c, const char *name, const pa_sample_spec *ss, const pa_channel_map *map), \
      (c, name, ss, map))                                                                                            \
    V(pa_stream_set_latency_update_callback, (pa_stream * p, pa_stream_notify_cb_t cb, void *userdata),              \
      (p, cb, userdata))                                                                                             \
    V(pa_stream_set_state_callback, (pa_stream * s, pa_stream_notify_cb_t cb, void *userdata), (s, cb, userdata))    \
    V(pa_stream_set_write_callback, (pa_stream * p, pa_stream_request_cb_t cb, void *userdata), (p, cb, userdata))   \
    V(pa_stream_unref, (pa_stream * s), (s))                                                                         \
    X(size_t, pa_stream_writable_size, (const pa_stream *p), (p))                                                    \
    X(int, pa_stream_write,                                                                                          \
      (pa_stream * p, const void *data, size_t nbytes, pa_free_cb_t free_cb, int64_t offset, pa_seek_mode_t seek),  \
      (p, data, nbytes, free_cb, offset, seek))                                                                      \
    X(const char *, pa_strerror, (int error), (error))                                                               \
    X(pa_volume_t, pa_sw_volume_from_dB, (double f), (f))                                                         \
    X(pa_volume_t, pa_sw_volume_multiply, (pa_volume_t a, pa_volume_t b), (a, b))                                    \
    X(double, pa_sw_volume_to_dB, (pa_volume_t v), (v))                                                           \
    V(pa_threaded_mainloop_free, (pa_threaded_mainloop * m), (m))                                                    \
    X(pa_mainloop_api *, pa_threaded_mainloop_get_api, (pa_threaded_mainloop * m), (m))                              \
    V(pa_threaded_mainloop_lock, (pa_threaded_mainloop * m), (m))                                                    \
    X(pa_threaded_mainloop *, pa_threaded_mainloop_new, (void), ())                                                  \
    V(pa_threaded_mainloop_signal, (pa_threaded_mainloop * m, int wait_for_accept), (m, wait_for_accept))            \
    X(int, pa_threaded_mainloop_start, (pa_threaded_mainloop * m), (m))                                              \
    V(pa_threaded_mainloop_stop, (pa_threaded_mainloop * m), (m))                                                    \
    V(pa_threaded_mainloop_unlock, (pa_threaded_mainloop * m), (m))                                                  \
    V(pa_threaded_mainloop_wait, (pa_threaded_mainloop * m), (m))

#define LIBRARY_LOADER_LIBRARY CPULSEAUDIO_LIBRARY

LIBRARY_LOADER_TABLE(CPULSEAUDIO_FUNCTIONS, NULL)

const char *CPulseAudio_load(void) { return library_loader_load(&library_loader_state); }

bool CPulseAudio_is_loaded(void) { return library_loader_is_loaded(CPULSEAUDIO_LIBRARY); }

LIBRARY_LOADER_FORWARDERS(CPULSEAUDIO_FUNCTIONS)
