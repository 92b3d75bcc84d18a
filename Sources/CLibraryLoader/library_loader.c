// SPDX-License-Identifier: GPL-3.0-or-later
// See include/CLibraryLoader.h.
#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "a function pointer is not the size of a data pointer");

bool library_loader_open(const char *library, const char *const names[], void *const slots[], size_t count,
                         char *failure, size_t failure_size) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(failure, failure_size, "%s", dlerror());
        return false;
    }
    for (size_t index = 0; index < count; index++) {
        void *symbol = dlsym(handle, names[index]);
        if (!symbol) {
            snprintf(failure, failure_size, "%s has no %s", library, names[index]);
            return false;
        }
        // The slot is a function pointer; dlsym's answer is copied into it, not cast.
        memcpy(slots[index], &symbol, sizeof symbol);
    }
    return true;
}

bool library_loader_is_loaded(const char *library) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!handle) return false;
    dlclose(handle);
    return true;
}

void library_loader_called_before_open(const char *library, const char *function) {
    fprintf(stderr, "announced: %s called before %s was opened\n", function, library);
    abort();
}
