// SPDX-License-Identifier: GPL-3.0-or-later
// Opening a library with dlopen when a setting first needs it, for the C shims that define a
// library's calls by their own names (CPulseAudio, CALSA) or wrap them (CLD2Shim): one open, the
// symbols resolved into the shim's typed pointers, one failure text. glibc has dlopen and dlsym;
// what is written here is the table: every symbol or none, and the words when one is missing.
#ifndef CLIBRARYLOADER_H
#define CLIBRARYLOADER_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Opens `library` (a soname, RTLD_NOW | RTLD_LOCAL: a library without one of the symbols is
/// refused here, not at its first call) and stores the address of each of the `count` symbols
/// `names` gives into the pointer `slots` gives at the same index (a function pointer of any type).
/// True when every one was found; otherwise false, with why not (dlopen's words, or the missing
/// symbol's name) in `failure`. Call it once (pthread_once), before any call through a slot.
bool library_loader_open(const char *library, const char *const names[], void *const slots[], size_t count,
                         char *failure, size_t failure_size);

/// Whether `library` is mapped in this process now (dlopen with RTLD_NOLOAD).
bool library_loader_is_loaded(const char *library);

/// A call through a slot before `library_loader_open` filled it: the program's own mistake. Says
/// which function and library on standard error, and aborts.
_Noreturn void library_loader_called_before_open(const char *library, const char *function);

#ifdef __cplusplus
}
#endif

// A shim that defines a library's calls by their own names lists them as an X macro,
// `LIST(X, V)`, with `X(return type, name, (parameters), (arguments))` for each call that returns
// a value and `V(name, (parameters), (arguments))` for each that returns nothing, and defines
// LIBRARY_LOADER_LIBRARY as the library's soname. Then:
// - `LIBRARY_LOADER_TABLE(LIST)` declares one pointer per call, of the type its header declares
//   (`name_in_library`), and the arrays `library_loader_names` and `library_loader_slots` for
//   `library_loader_open`;
// - `LIBRARY_LOADER_FORWARDERS(LIST)` defines each call, calling the library's through its pointer.
#define LIBRARY_LOADER_SLOT_(type, name, parameters, arguments) static __typeof__(&name) name##_in_library;
#define LIBRARY_LOADER_VOID_SLOT_(name, parameters, arguments) static __typeof__(&name) name##_in_library;
#define LIBRARY_LOADER_NAME_(type, name, parameters, arguments) #name,
#define LIBRARY_LOADER_VOID_NAME_(name, parameters, arguments) #name,
#define LIBRARY_LOADER_ADDRESS_(type, name, parameters, arguments) &name##_in_library,
#define LIBRARY_LOADER_VOID_ADDRESS_(name, parameters, arguments) &name##_in_library,
#define LIBRARY_LOADER_TABLE(LIST)                                                                    \
    LIST(LIBRARY_LOADER_SLOT_, LIBRARY_LOADER_VOID_SLOT_)                                             \
    static const char *const library_loader_names[] = {LIST(LIBRARY_LOADER_NAME_, LIBRARY_LOADER_VOID_NAME_)}; \
    static void *const library_loader_slots[] = {LIST(LIBRARY_LOADER_ADDRESS_, LIBRARY_LOADER_VOID_ADDRESS_)}; \
    enum { library_loader_count = sizeof library_loader_names / sizeof library_loader_names[0] };

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
