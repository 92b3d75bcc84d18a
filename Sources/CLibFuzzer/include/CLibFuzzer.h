// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer's driver, linked in by `-sanitize=fuzzer` (`make fuzz`). Declared here, in C, so the
// fuzz targets call it as an ordinary C function; nothing refers to it without FUZZING.
#ifndef C_LIBFUZZER_H
#define C_LIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the process's arguments, calling `callback` with each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
