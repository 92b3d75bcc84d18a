#define _GNU_SOURCE
#include "CProcessSpawn.h"

int announced_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
