// SPDX-License-Identifier: GPL-3.0-or-later
// See include/CLibraryLoader.h.
#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "a function pointer is not the size of a data pointer");

static bool open_library(library_loader *loader) {
    void *handle = dlopen(loader->library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(loader->failure, sizeof loader->failure, "%s", dlerror());
        return false;
    }
    for (size_t index = 0; index < loader->count; index++) {
        void *symbol = dlsym(handle, loader->names[index]);
        if (!symbol) {
            snprintf(loader->failure, sizeof loader->failure, "%s has no %s", loader->library, loader->names[index]);
            return false;
        }
        // The slot is a function pointer; dlsym's answer is copied into it, not cast.
        memcpy(loader->slots[index], &symbol, sizeof symbol);
    }
    return true;
}

const char *library_loader_load(library_loader *loader) {
    if (!__atomic_load_n(&loader->done, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&loader->lock);
        if (!loader->done) {
            loader->ready = open_library(loader);
            if (loader->ready && loader->after_open) loader->after_open();
            __atomic_store_n(&loader->done, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&loader->lock);
    }
    return loader->ready ? NULL : loader->failure;
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
