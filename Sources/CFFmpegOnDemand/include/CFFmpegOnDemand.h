// libavfilter and libavdevice, opened with dlopen the first time slomo needs them instead of
// being linked. Together they bring about 80 shared libraries (SDL, X11, PulseAudio, Vulkan,
// zimg, …) whose symbol resolution cost every run of slomo about 60 ms at start, and most runs
// (`slomo stretch`, `slomo retime`) use neither. The function tables are typed from FFmpeg's own
// declarations, so a mismatch is a compile error.
#ifndef SLOMO_CFFMPEG_ON_DEMAND_H
#define SLOMO_CFFMPEG_ON_DEMAND_H

// FFmpeg's declarations come through the CFFmpeg module, so that Swift sees one definition
// of every FFmpeg type (a second copy here would hide the first from code importing CFFmpeg).
#include "../../CFFmpeg/shim.h"

/// The libavfilter functions slomo calls.
typedef struct SlomoFilterFunctions {
    __typeof__(avfilter_get_by_name) *_Nonnull get_by_name;
    __typeof__(avfilter_graph_alloc) *_Nonnull graph_alloc;
    __typeof__(avfilter_graph_create_filter) *_Nonnull graph_create_filter;
    __typeof__(avfilter_graph_parse_ptr) *_Nonnull graph_parse_ptr;
    __typeof__(avfilter_graph_config) *_Nonnull graph_config;
    __typeof__(avfilter_graph_free) *_Nonnull graph_free;
    __typeof__(avfilter_inout_alloc) *_Nonnull inout_alloc;
    __typeof__(avfilter_inout_free) *_Nonnull inout_free;
    __typeof__(av_buffersrc_write_frame) *_Nonnull buffersrc_write_frame;
    __typeof__(av_buffersrc_add_frame_flags) *_Nonnull buffersrc_add_frame_flags;
    __typeof__(av_buffersink_get_frame) *_Nonnull buffersink_get_frame;
    __typeof__(av_buffersink_get_time_base) *_Nonnull buffersink_get_time_base;
} SlomoFilterFunctions;

/// The libavdevice functions slomo calls. Its input formats (x11grab, v4l2, pulse, lavfi) are
/// registered with libavformat when it is opened.
typedef struct SlomoDeviceFunctions {
    __typeof__(avdevice_list_input_sources) *_Nonnull list_input_sources;
    __typeof__(avdevice_free_list_devices) *_Nonnull free_list_devices;
} SlomoDeviceFunctions;

/// libavfilter's functions, opening the library on the first call (thread-safe). NULL when it
/// cannot be opened; `*error` then says why.
const SlomoFilterFunctions *_Nullable slomo_filter_functions(const char *_Nullable *_Nonnull error);

/// libavdevice's functions, opening the library and registering its input formats on the first
/// call (thread-safe). NULL when it cannot be opened; `*error` then says why.
const SlomoDeviceFunctions *_Nullable slomo_device_functions(const char *_Nullable *_Nonnull error);

#endif
