#include "CFFmpegOnDemand.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/// Why the last library failed to open, kept for the life of the process.
static char load_errors[2][512];

/// Opens `soname` and fills `count` function pointers at `slots` with the named symbols.
/// Returns 0, or -1 with `error` describing the failure.
static int open_library(const char *soname, const char *const *names, void **slots, int count,
                        char *error, size_t error_size) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(error, error_size, "cannot open %s (%s)", soname, dlerror());
        return -1;
    }
    for (int index = 0; index < count; index++) {
        slots[index] = dlsym(handle, names[index]);
        if (!slots[index]) {
            snprintf(error, error_size, "%s has no function %s", soname, names[index]);
            return -1;
        }
    }
    return 0;
}

#define SONAME(library, major) "lib" #library ".so." AV_STRINGIFY(major)

static SlomoFilterFunctions filter_functions;
static int filter_status = -1;
static pthread_once_t filter_once = PTHREAD_ONCE_INIT;

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
    filter_status = open_library(SONAME(avfilter, LIBAVFILTER_VERSION_MAJOR), names,
                                 (void **)&filter_functions, sizeof(names) / sizeof(names[0]),
                                 load_errors[0], sizeof(load_errors[0]));
}

const SlomoFilterFunctions *slomo_filter_functions(const char **error) {
    pthread_once(&filter_once, open_filters);
    *error = filter_status == 0 ? NULL : load_errors[0];
    return filter_status == 0 ? &filter_functions : NULL;
}

static SlomoDeviceFunctions device_functions;
static int device_status = -1;
static pthread_once_t device_once = PTHREAD_ONCE_INIT;

static void open_devices(void) {
    // The fields of SlomoDeviceFunctions in order, then avdevice_register_all.
    static const char *const names[] = {
        "avdevice_list_input_sources", "avdevice_free_list_devices", "avdevice_register_all",
    };
    struct {
        SlomoDeviceFunctions functions;
        __typeof__(avdevice_register_all) *_Nonnull register_all;
    } opened;
    _Static_assert(sizeof(names) / sizeof(names[0]) * sizeof(void *) == sizeof(opened),
                   "one name per function pointer");
    device_status = open_library(SONAME(avdevice, LIBAVDEVICE_VERSION_MAJOR), names,
                                 (void **)&opened, sizeof(names) / sizeof(names[0]),
                                 load_errors[1], sizeof(load_errors[1]));
    if (device_status != 0) return;
    opened.register_all();
    device_functions = opened.functions;
}

const SlomoDeviceFunctions *slomo_device_functions(const char **error) {
    pthread_once(&device_once, open_devices);
    *error = device_status == 0 ? NULL : load_errors[1];
    return device_status == 0 ? &device_functions : NULL;
}
