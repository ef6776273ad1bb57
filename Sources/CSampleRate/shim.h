// libsamplerate's C API.
#ifndef SLOMO_CSAMPLERATE_SHIM_H
#define SLOMO_CSAMPLERATE_SHIM_H
#include <samplerate.h>
#endif
