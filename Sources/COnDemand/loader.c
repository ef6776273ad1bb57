#include "loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

/// Says why `soname` or its function cannot be reached, and ends the process.
static void _Noreturn unavailable(const char *soname, const char *function, const char *reason) {
    fprintf(stderr, "slomo: cannot use %s from %s (%s); install slomo's libraries with scripts/setup\n",
            function, soname, reason ? reason : "unknown reason");
    _exit(127);
}

void *on_demand_address(const char *soname, OnDemandFunction *function) {
    void *address = atomic_load_explicit(&function->address, memory_order_acquire);
    if (address) return address;
    // dlopen is thread-safe and counts references: threads racing here get the same handle.
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) unavailable(soname, function->name, dlerror());
    address = dlsym(library, function->name);
    if (!address) unavailable(soname, function->name, dlerror());
    atomic_store_explicit(&function->address, address, memory_order_release);
    return address;
}
