// The one seam through which slomo reaches the C libraries it opens on first use. Every
// generated function (GROUP.c, made by scripts/on-demand-stubs from libraries.txt) keeps an
// OnDemandFunction and calls through on_demand_address. Not a public header: Swift never sees it.
#ifndef SLOMO_ON_DEMAND_LOADER_H
#define SLOMO_ON_DEMAND_LOADER_H

#include <stdarg.h>
#include <stdatomic.h>

#define ON_DEMAND_STRING(text) #text
/// An FFmpeg library's soname from its major version, e.g. "libavcodec.so.59".
#define ON_DEMAND_SONAME(name, major) "lib" #name ".so." ON_DEMAND_STRING(major)

/// A function of a library opened on demand: its name and, once found, its address.
typedef struct OnDemandFunction {
    const char *name;
    _Atomic(void *) address;
} OnDemandFunction;

/// The address of `function` in the library `soname`, opening the library and looking up the
/// symbol on its first call (any thread; later calls are one load). When the library cannot
/// be opened or lacks the function, says so on stderr and ends the process with status 127,
/// as the system's loader does when a linked library is missing.
void *on_demand_address(const char *soname, OnDemandFunction *function);

#endif
