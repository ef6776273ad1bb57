// The parts of FFmpeg 5.1 that Swift cannot import (function-like macros, macro constants
// built from other macros), as static inline functions. Nothing here has logic of its own.
#ifndef SLOMO_CFFMPEG_SHIM_H
#define SLOMO_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
// Opened on first use, like all of FFmpeg (COnDemand), but through function tables that report
// a missing library as an error instead of ending the process.
#include <libavdevice/avdevice.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libavutil/sha.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <errno.h>
#include <stdarg.h>

static inline int slomo_averror(int posix_errno) { return AVERROR(posix_errno); }
static inline int slomo_averror_eof(void) { return AVERROR_EOF; }
static inline int slomo_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int slomo_averror_enomem(void) { return AVERROR(ENOMEM); }
static inline int slomo_averror_enospc(void) { return AVERROR(ENOSPC); }
static inline int slomo_averror_einval(void) { return AVERROR(EINVAL); }
static inline int slomo_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int slomo_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int slomo_averror_encoder_not_found(void) { return AVERROR_ENCODER_NOT_FOUND; }
static inline int slomo_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int slomo_averror_exit(void) { return AVERROR_EXIT; }

static inline int64_t slomo_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational slomo_time_base_q(void) { return AV_TIME_BASE_Q; }

static inline int slomo_error_buffer_size(void) { return AV_ERROR_MAX_STRING_SIZE; }

/// The FFmpeg log line formatter for a va_list, so that a Swift log callback can format lines.
static inline int slomo_format_log_line(void *avcl, int level, const char *fmt, va_list vl,
                                        char *line, int line_size, int *print_prefix) {
    return av_log_format_line2(avcl, level, fmt, vl, line, line_size, print_prefix);
}

#endif
