// Rubber Band's C API (rubberband-c.h). Its option enum imports as plain constants.
#ifndef SLOMO_CRUBBERBAND_SHIM_H
#define SLOMO_CRUBBERBAND_SHIM_H
#include <rubberband/rubberband-c.h>
#endif
