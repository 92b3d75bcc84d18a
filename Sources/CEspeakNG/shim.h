// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef ANNOUNCED_CESPEAKNG_SHIM_H
#define ANNOUNCED_CESPEAKNG_SHIM_H
#include <espeak-ng/speak_lib.h>
// espeak_ng_InitializePath: announced-piper learns the data directory before espeak-ng starts its thread.
#include <espeak-ng/espeak_ng.h>
#endif
