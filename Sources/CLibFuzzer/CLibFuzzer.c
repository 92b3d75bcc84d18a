// SPDX-License-Identifier: GPL-3.0-or-later
// Only the header matters: SwiftPM builds a C target from at least one source file.
#include "CLibFuzzer.h"
