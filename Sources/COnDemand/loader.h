// What every generated function (GROUP.c, made by scripts/on-demand-stubs from libraries.txt)
// keeps and calls through: its address, found once with on_demand_symbol. Not a public header.
#ifndef SLOMO_ON_DEMAND_FUNCTION_H
#define SLOMO_ON_DEMAND_FUNCTION_H

#include "include/OnDemandLoader.h"

#include <stdarg.h>
#include <stdatomic.h>

/// A function of a library opened on demand: its name and, once found, its address.
typedef struct OnDemandFunction {
    const char *name;
    _Atomic(void *) address;
} OnDemandFunction;

/// The address of `function` in the library `soname`, found on its first call (any thread;
/// later calls are one load); ends the process as `on_demand_symbol` does when it cannot.
void *on_demand_address(const char *soname, OnDemandFunction *function);

#endif
