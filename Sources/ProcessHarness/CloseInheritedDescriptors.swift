// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
import Glibc

/// Makes the spawned child close every descriptor above standard error, after `actions`'s own
/// opens and dups: it gets none of the test process's other descriptors.
func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    _ = CAnnounceLinux_spawn_file_actions_addclosefrom(&actions, 3)
}
