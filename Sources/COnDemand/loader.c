#include "loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

void *on_demand_open(const char *soname, const char **reason) {
    // Thread-safe; threads racing here get the same handle.
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    *reason = library ? NULL : dlerror();
    return library;
}

void *on_demand_symbol(const char *soname, const char *name) {
    const char *reason = NULL;
    void *library = on_demand_open(soname, &reason);
    void *address = library ? dlsym(library, name) : NULL;
    if (library && !address) reason = dlerror();
    if (!address) {
        fprintf(stderr, "slomo: cannot use %s from %s (%s); install slomo's libraries with scripts/setup\n",
                name, soname, reason ? reason : "unknown reason");
        _exit(127);
    }
    return address;
}

void *on_demand_address(const char *soname, OnDemandFunction *function) {
    void *address = atomic_load_explicit(&function->address, memory_order_acquire);
    if (address) return address;
    address = on_demand_symbol(soname, function->name);
    atomic_store_explicit(&function->address, address, memory_order_release);
    return address;
}
