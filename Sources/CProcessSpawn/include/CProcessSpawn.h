#ifndef C_PROCESS_SPAWN_H
#define C_PROCESS_SPAWN_H

#include <spawn.h>

/// Adds a file action that closes every descriptor from `lowest` up when the child is spawned
/// (glibc's posix_spawn_file_actions_addclosefrom_np, 2.34+). Glibc declares it only under
/// _GNU_SOURCE, which Swift's Glibc module is not built with, so it is reached through here.
/// Returns 0, or an errno value.
int announced_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

#endif
