// OpenCV opened the first time optical flow is used instead of being linked: its video module
// brings about twenty shared libraries (dnn, protobuf, LAPACK, BLAS, gfortran, TBB, GLX, X11…)
// that cost every run of slomo about 7 ms at start, and only `--interpolation` needs them.
//
// The interpolator calls the 21 out-of-line OpenCV functions below. Each is defined here under
// its own mangled name (an asm label) as a plain function with the Itanium C++ ABI's signature
// for it: a member function or constructor takes `this` first, class arguments by reference
// are pointers, and arguments and results of OpenCV's own types by value are declared with
// those types, so the compiler passes them exactly as it does for the real function. The body
// finds the real function in libopencv_video (and what it loads) on the first call. Exceptions
// are caught as std::exception (cv::Exception's base), since cv::Exception's type information
// is OpenCV's. After calling a new OpenCV function, the link names it: add it here.
#include "internal.hpp"

#include <OnDemandLoader.h>
#include <opencv2/imgproc.hpp>

#include <atomic>

#pragma clang diagnostic ignored "-Wreturn-type-c-linkage"

namespace {

// Debian's soname joins the major version to a two-digit minor: libopencv_video.so.406.
#if CV_VERSION_MINOR < 10
constexpr const char *video_soname = "libopencv_video.so." ON_DEMAND_STRING(CV_VERSION_MAJOR) "0" ON_DEMAND_STRING(CV_VERSION_MINOR);
#else
constexpr const char *video_soname = "libopencv_video.so." ON_DEMAND_STRING(CV_VERSION_MAJOR) ON_DEMAND_STRING(CV_VERSION_MINOR);
#endif

// The real function named `name`, found in OpenCV on the first call (`on_demand_symbol`).
// ci_create checks first that the library opens (ci::opencv_available), so that a machine
// without it gets an error it can report; a function missing from a library that opened ends
// the process with status 127, as the system's loader would at start.
void *real_function(std::atomic<void *> &slot, const char *name) {
    void *address = slot.load(std::memory_order_acquire);
    if (address) return address;
    address = on_demand_symbol(video_soname, name);
    slot.store(address, std::memory_order_release);
    return address;
}

} // namespace

bool ci::opencv_available(std::string &message) {
    const char *reason = nullptr;
    if (on_demand_open(video_soname, &reason)) return true;
    message = std::string("cannot open OpenCV's ") + video_soname + " (" + (reason ? reason : "unknown reason")
        + "); install slomo's libraries with scripts/setup";
    return false;
}

// FORWARD(RESULT, MANGLED, PARAMETERS, ARGUMENTS): defines MANGLED as a function taking
// PARAMETERS that calls the real MANGLED with ARGUMENTS.
#define FORWARD(RESULT, MANGLED, PARAMETERS, ARGUMENTS)                                          \
    extern "C" RESULT MANGLED##_forward PARAMETERS __asm__(#MANGLED);                            \
    extern "C" RESULT MANGLED##_forward PARAMETERS {                                             \
        static std::atomic<void *> slot{nullptr};                                                \
        using Function = RESULT(*) PARAMETERS;                                                   \
        return reinterpret_cast<Function>(real_function(slot, #MANGLED)) ARGUMENTS;              \
    }

using InputArray = const cv::_InputArray *;
using OutputArray = const cv::_OutputArray *;

// cv::Mat: constructors, destructor, assignment and the members the interpolator's inline
// calls reach.
FORWARD(void, _ZN2cv3MatC1Ev, (cv::Mat *self), (self))
FORWARD(void, _ZN2cv3MatC1EOS0_, (cv::Mat *self, cv::Mat *other), (self, other))
FORWARD(void, _ZN2cv3MatC1ERKS0_RKNS_5RangeES5_,
        (cv::Mat *self, const cv::Mat *other, const cv::Range *rows, const cv::Range *columns), (self, other, rows, columns))
FORWARD(void, _ZN2cv3MatD1Ev, (cv::Mat *self), (self))
FORWARD(cv::Mat *, _ZN2cv3MataSERKS0_, (cv::Mat *self, const cv::Mat *other), (self, other))
FORWARD(cv::Mat *, _ZN2cv3MataSEOS0_, (cv::Mat *self, cv::Mat *other), (self, other))
FORWARD(void, _ZN2cv3Mat6createEiii, (cv::Mat *self, int rows, int columns, int type), (self, rows, columns, type))
FORWARD(void, _ZN2cv3Mat7releaseEv, (cv::Mat *self), (self))
FORWARD(bool, _ZNK2cv3Mat5emptyEv, (const cv::Mat *self), (self))
FORWARD(size_t, _ZNK2cv3Mat5totalEv, (const cv::Mat *self), (self))
FORWARD(void, _ZNK2cv3Mat9convertToERKNS_12_OutputArrayEidd,
        (const cv::Mat *self, OutputArray output, int type, double alpha, double beta), (self, output, type, alpha, beta))

// Free functions of core and imgproc.
FORWARD(void, _ZN2cv13setNumThreadsEi, (int threads), (threads))
FORWARD(void, _ZN2cv3ocl12setUseOpenCLEb, (bool use), (use))
FORWARD(cv::_InputOutputArray *, _ZN2cv7noArrayEv, (), ())
FORWARD(cv::Scalar, _ZN2cv4meanERKNS_11_InputArrayES2_, (InputArray source, InputArray mask), (source, mask))
FORWARD(void, _ZN2cv11addWeightedERKNS_11_InputArrayEdS2_ddRKNS_12_OutputArrayEi,
        (InputArray first, double alpha, InputArray second, double beta, double gamma, OutputArray output, int type),
        (first, alpha, second, beta, gamma, output, type))
FORWARD(void, _ZN2cv4blurERKNS_11_InputArrayERKNS_12_OutputArrayENS_5Size_IiEENS_6Point_IiEEi,
        (InputArray source, OutputArray output, cv::Size size, cv::Point anchor, int border), (source, output, size, anchor, border))
FORWARD(void, _ZN2cv5remapERKNS_11_InputArrayERKNS_12_OutputArrayES2_S2_iiRKNS_7Scalar_IdEE,
        (InputArray source, OutputArray output, InputArray map1, InputArray map2, int interpolation, int border,
         const cv::Scalar *value),
        (source, output, map1, map2, interpolation, border, value))
FORWARD(void, _ZN2cv6resizeERKNS_11_InputArrayERKNS_12_OutputArrayENS_5Size_IiEEddi,
        (InputArray source, OutputArray output, cv::Size size, double x, double y, int interpolation),
        (source, output, size, x, y, interpolation))

// Static members of the video module: no `this`.
FORWARD(cv::Ptr<cv::DISOpticalFlow>, _ZN2cv14DISOpticalFlow6createEi, (int preset), (preset))
FORWARD(cv::Ptr<cv::VariationalRefinement>, _ZN2cv21VariationalRefinement6createEv, (), ())
