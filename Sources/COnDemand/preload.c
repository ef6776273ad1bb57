// Opens, ahead of need, the libraries every retime, export and stretch calls (see COnDemand.h).
#include "include/COnDemand.h"

void slomo_preload_job_libraries(void) {
    static const char *const sonames[] = {
        ON_DEMAND_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR), ON_DEMAND_SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR),
        ON_DEMAND_SONAME(avutil, LIBAVUTIL_VERSION_MAJOR), ON_DEMAND_SONAME(swscale, LIBSWSCALE_VERSION_MAJOR),
        ON_DEMAND_SONAME(swresample, LIBSWRESAMPLE_VERSION_MAJOR), "libfftw3f.so.3", "libsamplerate.so.0",
        "librubberband.so.2",
    };
    for (unsigned index = 0; index < sizeof sonames / sizeof *sonames; index++) {
        const char *reason = NULL;
        (void)on_demand_open(sonames[index], &reason);    // one that cannot open fails its job later, as it would
    }
}
