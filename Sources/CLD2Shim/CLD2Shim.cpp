// SPDX-License-Identifier: GPL-3.0-or-later
#include "CLD2Shim.h"

// compact_lang_det.h uses FILE without including its header.
#include <cstdio>
#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>
#include "CLibraryLoader.h"

namespace {

// The two CLD2 calls, by their C++ types; the library is opened only when they are first needed
// (`language_switching: detect`), so no other daemon maps libcld2 or what it links.
using Detect = CLD2::Language (*)(const char *, int, bool, const CLD2::CLDHints *, int, CLD2::Language *, int *,
                                  double *, CLD2::ResultChunkVector *, int *, bool *);
using Code = const char *(*)(CLD2::Language);
// Unevaluated: the compiler picks the overload of each type from the headers, or refuses to build
// when the library's declarations change, without linking the library.
static_assert(sizeof(static_cast<Detect>(&CLD2::ExtDetectLanguageSummary)) != 0, "CLD2's detection call");
static_assert(sizeof(static_cast<Code>(&CLD2::LanguageCode)) != 0, "CLD2's language codes");

// The Itanium C++ ABI's names of the two functions above, as libcld2.so.0 exports them.
constexpr const char *detectSymbol =
    "_ZN4CLD224ExtDetectLanguageSummaryEPKcibPKNS_8CLDHintsEiPNS_8LanguageEPiPdPSt6vectorINS_11ResultChunkESaISA_EES7_Pb";
constexpr const char *codeSymbol = "_ZN4CLD212LanguageCodeENS_8LanguageE";

Detect detect = nullptr;
Code code = nullptr;
const char *const names[] = {detectSymbol, codeSymbol};
void *const slots[] = {&detect, &code};
library_loader loader = {CLD2_SHIM_LIBRARY, names, slots, 2, nullptr, PTHREAD_MUTEX_INITIALIZER, 0, false, ""};

}  // namespace

const char *cld2_shim_load(void) { return library_loader_load(&loader); }

bool cld2_shim_is_loaded(void) { return library_loader_is_loaded(CLD2_SHIM_LIBRARY); }

void cld2_shim_identify(const char *text, int length, const char *hints, const char *codes[3], bool *reliable) {
    CLD2::CLDHints cldHints = {hints, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
    CLD2::Language language3[3];
    int percent3[3];
    double scores3[3];
    int textBytes = 0;
    *reliable = false;
    for (int i = 0; i < 3; i++) codes[i] = nullptr;
    if (cld2_shim_load()) return;
    detect(text, length, true, &cldHints, 0, language3, percent3, scores3, nullptr, &textBytes, reliable);
    for (int i = 0; i < 3; i++) codes[i] = code(language3[i]);
}
