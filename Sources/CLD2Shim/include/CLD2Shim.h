// SPDX-License-Identifier: GPL-3.0-or-later
// A C API for the one CLD2 call announced makes (CLD2 has only a C++ API).
#ifndef CLD2_SHIM_H
#define CLD2_SHIM_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// CLD2's three likeliest languages of `length` bytes of valid UTF-8 plain text at `text`, best
/// first, as language codes ("en", "de", "un" for none) that live as long as the process; and
/// whether CLD2 finds the first reliable. `hints` is a comma-separated list of language codes
/// CLD2 favours ("en,de"), or NULL.
void cld2_shim_identify(const char *text, int length, const char *hints, const char *codes[3], bool *reliable);

#ifdef __cplusplus
}
#endif

#endif
