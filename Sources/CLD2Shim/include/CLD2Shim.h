// SPDX-License-Identifier: GPL-3.0-or-later
// A C API for the one CLD2 call announced makes (CLD2 has only a C++ API). The library is opened
// with dlopen on the first call, so a daemon that never identifies a language never maps it.
#ifndef CLD2_SHIM_H
#define CLD2_SHIM_H

#include <stdbool.h>

/// The library opened: Debian's libcld2-0 (its soname).
#define CLD2_SHIM_LIBRARY "libcld2.so.0"

#ifdef __cplusplus
extern "C" {
#endif

/// Opens CLD2 (once per process; later calls return the first answer): NULL when it is
/// ready, otherwise why not (dlopen's or dlsym's words), a string that lives as long as the process.
const char *cld2_shim_load(void);

/// Whether CLD2's library is mapped in this process now (dlopen with RTLD_NOLOAD).
bool cld2_shim_is_loaded(void);

/// CLD2's three likeliest languages of `length` bytes of valid UTF-8 plain text at `text`, best
/// first, as language codes ("en", "de", "un" for none) that live as long as the process; and
/// whether CLD2 finds the first reliable. `hints` is a comma-separated list of language codes
/// CLD2 favours ("en,de"), or NULL. Opens CLD2 first (`cld2_shim_load`); when it cannot, the
/// codes are NULL and `reliable` false.
void cld2_shim_identify(const char *text, int length, const char *hints, const char *codes[3], bool *reliable);

#ifdef __cplusplus
}
#endif

#endif
