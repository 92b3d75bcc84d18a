// SPDX-License-Identifier: GPL-3.0-or-later
// See include/CALSA.h. Each function the daemon calls is defined here by its own name and
// prototype (the compiler checks both against libasound's headers) and calls the library's,
// found by dlsym when CALSA_load runs. Written by hand: Debian ships no loader for libasound, and
// the list is the 23 calls the daemon makes; a call the list lacks fails the link.
#include "CALSA.h"

#include "CLibraryLoader.h"


// X(return type, name, parameters, arguments); V(name, parameters, arguments) returns nothing.
#define CALSA_FUNCTIONS(X, V)                                                                                       \
    X(int, snd_lib_error_set_handler, (snd_lib_error_handler_t handler), (handler))                                \
    X(int, snd_pcm_close, (snd_pcm_t * pcm), (pcm))                                                                \
    X(int, snd_pcm_delay, (snd_pcm_t * pcm, snd_pcm_sframes_t * delayp), (pcm, delayp))                            \
    X(int, snd_pcm_drop, (snd_pcm_t * pcm), (pcm))                                                                 \
    X(int, snd_pcm_get_params, (snd_pcm_t * pcm, snd_pcm_uframes_t * buffer_size, snd_pcm_uframes_t * period_size), \
      (pcm, buffer_size, period_size))                                                                             \
    X(int, snd_pcm_hw_params_can_pause, (const snd_pcm_hw_params_t *params), (params))                             \
    X(int, snd_pcm_hw_params_current, (snd_pcm_t * pcm, snd_pcm_hw_params_t * params), (pcm, params))              \
    V(snd_pcm_hw_params_free, (snd_pcm_hw_params_t * obj), (obj))                                                  \
    X(int, snd_pcm_hw_params_malloc, (snd_pcm_hw_params_t * *ptr), (ptr))                                          \
    X(int, snd_pcm_open, (snd_pcm_t * *pcm, const char *name, snd_pcm_stream_t stream, int mode),                  \
      (pcm, name, stream, mode))                                                                                   \
    X(int, snd_pcm_pause, (snd_pcm_t * pcm, int enable), (pcm, enable))                                            \
    X(int, snd_pcm_prepare, (snd_pcm_t * pcm), (pcm))                                                              \
    X(int, snd_pcm_recover, (snd_pcm_t * pcm, int err, int silent), (pcm, err, silent))                            \
    X(int, snd_pcm_set_params,                                                                                     \
      (snd_pcm_t * pcm, snd_pcm_format_t format, snd_pcm_access_t access, unsigned int channels, unsigned int rate, \
       int soft_resample, unsigned int latency),                                                                   \
      (pcm, format, access, channels, rate, soft_resample, latency))                                               \
    X(int, snd_pcm_start, (snd_pcm_t * pcm), (pcm))                                                                \
    X(snd_pcm_state_t, snd_pcm_state, (snd_pcm_t * pcm), (pcm))                                                    \
    X(int, snd_pcm_sw_params, (snd_pcm_t * pcm, snd_pcm_sw_params_t * params), (pcm, params))                      \
    X(int, snd_pcm_sw_params_current, (snd_pcm_t * pcm, snd_pcm_sw_params_t * params), (pcm, params))              \
    V(snd_pcm_sw_params_free, (snd_pcm_sw_params_t * obj), (obj))                                                  \
    X(int, snd_pcm_sw_params_malloc, (snd_pcm_sw_params_t * *ptr), (ptr))                                          \
    X(int, snd_pcm_sw_params_set_start_threshold, (snd_pcm_t * pcm, snd_pcm_sw_params_t * params, snd_pcm_uframes_t val), \
      (pcm, params, val))                                                                                          \
    X(snd_pcm_sframes_t, snd_pcm_writei, (snd_pcm_t * pcm, const void *buffer, snd_pcm_uframes_t size),             \
      (pcm, buffer, size))                                                                                         \
    X(const char *, snd_strerror, (int errnum), (errnum))

#define LIBRARY_LOADER_LIBRARY CALSA_LIBRARY
// Once the library is open: its own error printing is replaced by none.
static void silence_library_errors(void);
LIBRARY_LOADER_TABLE(CALSA_FUNCTIONS, silence_library_errors)

// The handler is variadic, which Swift cannot define, so it lives here.
static void ignore_library_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file;
    (void)line;
    (void)function;
    (void)err;
    (void)fmt;
}

static void silence_library_errors(void) { snd_lib_error_set_handler_in_library(ignore_library_error); }

const char *CALSA_load(void) { return library_loader_load(&library_loader_state); }

bool CALSA_is_loaded(void) { return library_loader_is_loaded(CALSA_LIBRARY); }

LIBRARY_LOADER_FORWARDERS(CALSA_FUNCTIONS)
