// SPDX-License-Identifier: GPL-3.0-or-later
#include <systemd/sd-bus.h>
