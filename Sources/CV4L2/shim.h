// Video4Linux2 through ioctl. The VIDIOC_* request codes are function-like macros that Swift
// cannot import: they are exposed here as functions.
#ifndef SLOMO_CV4L2_SHIM_H
#define SLOMO_CV4L2_SHIM_H
#include <linux/videodev2.h>
#include <sys/ioctl.h>

static inline unsigned long slomo_vidioc_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long slomo_vidioc_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long slomo_vidioc_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long slomo_vidioc_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
#endif
