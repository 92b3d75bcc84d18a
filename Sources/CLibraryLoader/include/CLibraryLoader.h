// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a library with dlopen when a setting first needs it, for the C shims that define a
// library's calls by their own names (CPulseAudio, CALSA) or wrap them (CLD2Shim): one open, the
// symbols resolved into the shim's typed pointers, one failure text. glibc has dlopen and dlsym;
// what is written here is the table: every symbol or none, and the words when one is missing.
#ifndef CLIBRARYLOADER_H
#define CLIBRARYLOADER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One library opened on first use: what to open and resolve, and what came of it. A shim keeps
/// one, static (`LIBRARY_LOADER_TABLE` makes it), and asks `library_loader_load` for it.
typedef struct {
    /// The library's soname.
    const char *library;
    /// The `count` symbols to resolve, and at the same index the pointer (a function pointer of
    /// any type) each one's address goes into.
    const char *const *names;
    void *const *slots;
    size_t count;
    /// Run once, under `lock`, when every symbol was found (NULL: nothing to run).
    void (*after_open)(void);
    pthread_mutex_t lock;
    /// Set, with release order, once the library was tried; `ready` and `failure` are final then.
    int done;
    bool ready;
    char failure[512];
} library_loader;

/// Opens the loader's library the first time it is asked (RTLD_NOW | RTLD_LOCAL: a library
/// without one of the symbols is refused here, not at its first call), every symbol or none; later
/// calls return the first answer, without a lock. NULL when the library is ready; otherwise why
/// not (dlopen's words, or the missing symbol's name), a string that lives as long as the loader.
const char *library_loader_load(library_loader *loader);

/// Whether `library` is mapped in this process now (dlopen with RTLD_NOLOAD).
bool library_loader_is_loaded(const char *library);

/// A call through a slot before `library_loader_load` filled it: the program's own mistake. Says
/// which function and library on standard error, and aborts.
_Noreturn void library_loader_called_before_open(const char *library, const char *function);

#ifdef __cplusplus
}
#endif

// A shim that defines a library's calls by their own names lists them as an X macro,
// `LIST(X, V)`, with `X(return type, name, (parameters), (arguments))` for each call that returns
// a value and `V(name, (parameters), (arguments))` for each that returns nothing, and defines
// LIBRARY_LOADER_LIBRARY as the library's soname. Then:
// - `LIBRARY_LOADER_TABLE(LIST, AFTER_OPEN)` declares one pointer per call, of the type its header
//   declares (`name_in_library`), and the shim's `library_loader_state` (AFTER_OPEN: a function to
//   run once the library is open, or NULL);
// - `LIBRARY_LOADER_FORWARDERS(LIST)` defines each call, calling the library's through its pointer.
#define LIBRARY_LOADER_SLOT_(type, name, parameters, arguments) static __typeof__(&name) name##_in_library;
#define LIBRARY_LOADER_VOID_SLOT_(name, parameters, arguments) static __typeof__(&name) name##_in_library;
#define LIBRARY_LOADER_NAME_(type, name, parameters, arguments) #name,
#define LIBRARY_LOADER_VOID_NAME_(name, parameters, arguments) #name,
#define LIBRARY_LOADER_ADDRESS_(type, name, parameters, arguments) &name##_in_library,
#define LIBRARY_LOADER_VOID_ADDRESS_(name, parameters, arguments) &name##_in_library,
#define LIBRARY_LOADER_TABLE(LIST, AFTER_OPEN)                                                         \
    LIST(LIBRARY_LOADER_SLOT_, LIBRARY_LOADER_VOID_SLOT_)                                               \
    static const char *const library_loader_names[] = {LIST(LIBRARY_LOADER_NAME_, LIBRARY_LOADER_VOID_NAME_)}; \
    static void *const library_loader_slots[] = {LIST(LIBRARY_LOADER_ADDRESS_, LIBRARY_LOADER_VOID_ADDRESS_)}; \
    static library_loader library_loader_state = {                                                      \
        LIBRARY_LOADER_LIBRARY, library_loader_names, library_loader_slots,                             \
        sizeof library_loader_names / sizeof library_loader_names[0], AFTER_OPEN, PTHREAD_MUTEX_INITIALIZER, \
        0, false, ""};

#define LIBRARY_LOADER_FORWARD_(type, name, parameters, arguments)                              \
    type name parameters {                                                                      \
        if (!name##_in_library) library_loader_called_before_open(LIBRARY_LOADER_LIBRARY, #name); \
        return name##_in_library arguments;                                                     \
    }
#define LIBRARY_LOADER_VOID_FORWARD_(name, parameters, arguments)                               \
    void name parameters {                                                                      \
        if (!name##_in_library) library_loader_called_before_open(LIBRARY_LOADER_LIBRARY, #name); \
        name##_in_library arguments;                                                            \
    }
#define LIBRARY_LOADER_FORWARDERS(LIST) LIST(LIBRARY_LOADER_FORWARD_, LIBRARY_LOADER_VOID_FORWARD_)

#endif
