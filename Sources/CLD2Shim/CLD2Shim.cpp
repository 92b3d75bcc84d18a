// SPDX-License-Identifier: GPL-3.0-or-later
#include "CLD2Shim.h"

// compact_lang_det.h uses FILE without including its header.
#include <cstdio>
#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>

void cld2_shim_identify(const char *text, int length, const char *hints, const char *codes[3], bool *reliable) {
    CLD2::CLDHints cldHints = {hints, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
    CLD2::Language language3[3];
    int percent3[3];
    double scores3[3];
    int textBytes = 0;
    *reliable = false;
    CLD2::ExtDetectLanguageSummary(text, length, true, &cldHints, 0, language3, percent3, scores3, nullptr, &textBytes,
                                   reliable);
    for (int i = 0; i < 3; i++) codes[i] = CLD2::LanguageCode(language3[i]);
}
