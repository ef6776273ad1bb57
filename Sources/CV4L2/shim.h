// Video4Linux2 through ioctl. The VIDIOC_* request codes are function-like macros that Swift
// cannot import, and ioctl itself is variadic: both are exposed here as plain functions.
#ifndef SLOMO_CV4L2_SHIM_H
#define SLOMO_CV4L2_SHIM_H
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <errno.h>

static inline unsigned long slomo_vidioc_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long slomo_vidioc_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long slomo_vidioc_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long slomo_vidioc_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long slomo_vidioc_g_parm(void) { return VIDIOC_G_PARM; }
static inline unsigned long slomo_vidioc_s_parm(void) { return VIDIOC_S_PARM; }

/// ioctl(2) with one pointer argument; returns -1 and sets errno on failure.
static inline int slomo_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }

static inline unsigned int slomo_v4l2_cap_video_capture(void) { return V4L2_CAP_VIDEO_CAPTURE; }
static inline unsigned int slomo_v4l2_cap_device_caps(void) { return V4L2_CAP_DEVICE_CAPS; }
static inline unsigned int slomo_v4l2_fmt_flag_compressed(void) { return V4L2_FMT_FLAG_COMPRESSED; }
static inline int slomo_errno_einval(void) { return EINVAL; }
static inline int slomo_errno_enotty(void) { return ENOTTY; }
#endif
