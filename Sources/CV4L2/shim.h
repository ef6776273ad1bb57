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
static inline unsigned long slomo_vidioc_queryctrl(void) { return VIDIOC_QUERYCTRL; }
static inline unsigned long slomo_vidioc_querymenu(void) { return VIDIOC_QUERYMENU; }
static inline unsigned long slomo_vidioc_g_ctrl(void) { return VIDIOC_G_CTRL; }
static inline unsigned long slomo_vidioc_s_ctrl(void) { return VIDIOC_S_CTRL; }
static inline unsigned long slomo_vidioc_g_priority(void) { return VIDIOC_G_PRIORITY; }
static inline unsigned long slomo_vidioc_s_priority(void) { return VIDIOC_S_PRIORITY; }
static inline unsigned int slomo_v4l2_ctrl_flag_next_ctrl(void) { return V4L2_CTRL_FLAG_NEXT_CTRL; }

/// ioctl(2) with one pointer argument; returns -1 and sets errno on failure.
static inline int slomo_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }

static inline unsigned int slomo_v4l2_cap_video_capture(void) { return V4L2_CAP_VIDEO_CAPTURE; }
static inline unsigned int slomo_v4l2_cap_device_caps(void) { return V4L2_CAP_DEVICE_CAPS; }
static inline unsigned int slomo_v4l2_fmt_flag_compressed(void) { return V4L2_FMT_FLAG_COMPRESSED; }
static inline int slomo_errno_einval(void) { return EINVAL; }
static inline int slomo_errno_enotty(void) { return ENOTTY; }
static inline int slomo_errno_erange(void) { return ERANGE; }
static inline int slomo_errno_ebusy(void) { return EBUSY; }
static inline int slomo_errno_eacces(void) { return EACCES; }
#endif
