#include "COnDemand.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define COUNT(array) (int)(sizeof(array) / sizeof((array)[0]))

/// One library opened on first use: opened once, then whether it opened and why not.
typedef struct OnDemandLibrary {
    pthread_once_t once;
    int status;
    char error[512];
} OnDemandLibrary;

/// Opens `soname` and fills `count` function pointers at `slots` with the named symbols.
/// Sets `library->status` to 0, or to -1 with `library->error` describing the failure.
static void open_library(OnDemandLibrary *library, const char *soname, const char *const *names,
                         void **slots, int count) {
    library->status = -1;
    const char *reason = NULL;
    void *handle = on_demand_open(soname, &reason);
    if (!handle) {
        snprintf(library->error, sizeof(library->error), "cannot open %s (%s)", soname, reason);
        return;
    }
    for (int index = 0; index < count; index++) {
        slots[index] = dlsym(handle, names[index]);
        if (!slots[index]) {
            snprintf(library->error, sizeof(library->error), "%s has no function %s", soname, names[index]);
            return;
        }
    }
    library->status = 0;
}

/// Opens `library` once with `open`, then returns `functions`, or NULL with `*error` set.
static const void *opened(OnDemandLibrary *library, void (*open)(void), const void *functions,
                          const char **error) {
    pthread_once(&library->once, open);
    *error = library->status == 0 ? NULL : library->error;
    return library->status == 0 ? functions : NULL;
}

static OnDemandLibrary filters = {PTHREAD_ONCE_INIT, -1, ""};
static SlomoFilterFunctions filter_functions;

static void open_filters(void) {
    // In the order of the fields of SlomoFilterFunctions, which holds only function pointers.
    static const char *const names[] = {
        "avfilter_get_by_name", "avfilter_graph_alloc", "avfilter_graph_create_filter",
        "avfilter_graph_parse_ptr", "avfilter_graph_config", "avfilter_graph_free",
        "avfilter_inout_alloc", "avfilter_inout_free", "av_buffersrc_write_frame",
        "av_buffersrc_add_frame_flags", "av_buffersink_get_frame", "av_buffersink_get_time_base",
    };
    _Static_assert(sizeof(names) / sizeof(names[0]) * sizeof(void *) == sizeof(SlomoFilterFunctions),
                   "one name per field of SlomoFilterFunctions");
    open_library(&filters, ON_DEMAND_SONAME(avfilter, LIBAVFILTER_VERSION_MAJOR), names,
                 (void **)&filter_functions, COUNT(names));
}

const SlomoFilterFunctions *slomo_filter_functions(const char **error) {
    return opened(&filters, open_filters, &filter_functions, error);
}

static OnDemandLibrary devices = {PTHREAD_ONCE_INIT, -1, ""};
static SlomoDeviceFunctions device_functions;

static void open_devices(void) {
    // The fields of SlomoDeviceFunctions in order, then avdevice_register_all.
    static const char *const names[] = {
        "avdevice_list_input_sources", "avdevice_free_list_devices", "avdevice_register_all",
    };
    struct {
        SlomoDeviceFunctions functions;
        __typeof__(avdevice_register_all) *_Nonnull register_all;
    } found;
    _Static_assert(sizeof(names) / sizeof(names[0]) * sizeof(void *) == sizeof(found),
                   "one name per function pointer");
    open_library(&devices, ON_DEMAND_SONAME(avdevice, LIBAVDEVICE_VERSION_MAJOR), names, (void **)&found, COUNT(names));
    if (devices.status != 0) return;
    found.register_all();
    device_functions = found.functions;
}

const SlomoDeviceFunctions *slomo_device_functions(const char **error) {
    return opened(&devices, open_devices, &device_functions, error);
}
