// SPDX-License-Identifier: GPL-3.0-or-later
// See include/CSherpaOnnx.h. dlopen is in glibc (2.34 and later) and in Swift's Glibc module, but
// casting dlsym's pointer to a C function pointer type and filling the table is plainer here.
#define _GNU_SOURCE
#include "CSherpaOnnx.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static int fail(char *error, size_t error_size, const char *what, const char *detail) {
    if (error_size > 0) snprintf(error, error_size, "%s%s", what, detail ? detail : "");
    return -1;
}

int CSherpaOnnx_load(const char *directory, CSherpaOnnx_API *api, char *error, size_t error_size) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", directory, CSHERPAONNX_LIBRARY_NAME) >= (int)sizeof path) {
        return fail(error, error_size, "the library directory's name is too long", NULL);
    }
    // RTLD_NOW: every symbol is bound before the sandbox, which then needs no new mappings.
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) return fail(error, error_size, dlerror(), NULL);
    memset(api, 0, sizeof *api);
#define CSHERPAONNX_SYMBOL(field, name)                                                     \
    do {                                                                                    \
        void *symbol = dlsym(library, #name);                                               \
        if (!symbol) return fail(error, error_size, "the library has no function ", #name); \
        memcpy(&api->field, &symbol, sizeof symbol);                                        \
    } while (0)
    CSHERPAONNX_SYMBOL(getVersionStr, SherpaOnnxGetVersionStr);
    CSHERPAONNX_SYMBOL(createOfflineTts, SherpaOnnxCreateOfflineTts);
    CSHERPAONNX_SYMBOL(destroyOfflineTts, SherpaOnnxDestroyOfflineTts);
    CSHERPAONNX_SYMBOL(sampleRate, SherpaOnnxOfflineTtsSampleRate);
    CSHERPAONNX_SYMBOL(generateWithConfig, SherpaOnnxOfflineTtsGenerateWithConfig);
    CSHERPAONNX_SYMBOL(destroyGeneratedAudio, SherpaOnnxDestroyOfflineTtsGeneratedAudio);
#undef CSHERPAONNX_SYMBOL
    return 0;
}

int CSherpaOnnx_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
