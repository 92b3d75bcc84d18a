// SPDX-License-Identifier: Apache-2.0
// See include/CAnnounceLinux.h. _GNU_SOURCE makes glibc declare what the header wraps.
#define _GNU_SOURCE
#include "CAnnounceLinux.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <spawn.h>
#include <stddef.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <unistd.h>

_Static_assert(sizeof(CAnnounceLinux_ucred) == sizeof(struct ucred), "struct ucred changed size");
_Static_assert(offsetof(CAnnounceLinux_ucred, pid) == offsetof(struct ucred, pid), "struct ucred: pid moved");
_Static_assert(offsetof(CAnnounceLinux_ucred, uid) == offsetof(struct ucred, uid), "struct ucred: uid moved");
_Static_assert(offsetof(CAnnounceLinux_ucred, gid) == offsetof(struct ucred, gid), "struct ucred: gid moved");

int CAnnounceLinux_malloc_trim(size_t pad) { return malloc_trim(pad); }

int CAnnounceLinux_set_malloc_arena_max(int count) { return mallopt(M_ARENA_MAX, count); }

int CAnnounceLinux_set_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int CAnnounceLinux_pthread_setname_np(pthread_t thread, const char *name) {
    return pthread_setname_np(thread, name);
}

int CAnnounceLinux_set_pipe_size(int fd, int bytes) { return fcntl(fd, F_SETPIPE_SZ, bytes); }

int CAnnounceLinux_is_main_thread(void) { return gettid() == getpid(); }

int CAnnounceLinux_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

short CAnnounceLinux_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

int CAnnounceLinux_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int CAnnounceLinux_pidfd_open(pid_t pid) { return pidfd_open(pid, 0); }

// Whether an object was linked with text relocations: the loader then wrote into its code
// pages, which are private copies that exist nowhere else and must stay.
static int has_text_relocations(const struct dl_phdr_info *info) {
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
        if (segment->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + segment->p_vaddr); entry->d_tag != DT_NULL;
             entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL) != 0) return 1;
        }
    }
    return 0;
}

// dl_iterate_phdr visits the executable, then each shared library (the loader among them) and
// the vDSO, which is the kernel's and is left alone.
static int release_segments(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    size_t *released = data;
    if (info->dlpi_addr == (ElfW(Addr))getauxval(AT_SYSINFO_EHDR) || has_text_relocations(info)) return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
        // Writable segments hold the program's data (and, made read-only after relocation, RELRO):
        // their private pages exist nowhere else and would be lost.
        if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W) != 0) continue;
        // Whole pages inside the segment only: a page it shares with its neighbour stays.
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_memsz) & ~(page - 1);
        if (end > start && madvise((void *)start, end - start, MADV_DONTNEED) == 0) *released += end - start;
    }
    return 0;
}

size_t CAnnounceLinux_release_read_only_pages(void) {
    size_t released = 0;
    dl_iterate_phdr(release_segments, &released);
    return released;
}
