// SPDX-License-Identifier: GPL-3.0-or-later
#include <alsa/asoundlib.h>

/* libasound prints its own errors to standard error ("ALSA lib pcm.c: Unknown PCM default")
   unless a handler is set; announced reports failures itself, once, in its own words. The
   handler is variadic, which Swift cannot define, so it lives here. */
static void announced_alsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void announced_alsa_silence_library_errors(void) {
    snd_lib_error_set_handler(announced_alsa_ignore_error);
}
