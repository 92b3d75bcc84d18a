// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef ANNOUNCED_CSECCOMP_SHIM_H
#define ANNOUNCED_CSECCOMP_SHIM_H
#include <seccomp.h>

/// `SCMP_ACT_ERRNO(code)`, a function-like macro Swift does not import: the call fails with `code`.
static inline uint32_t CSeccomp_act_errno(int code) { return SCMP_ACT_ERRNO(code); }
#endif
