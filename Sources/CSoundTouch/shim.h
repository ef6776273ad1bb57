// SoundTouch's C API as Debian ships it (SoundTouchDLL.h, -lSoundTouchDll). The header has no
// extern "C" of its own (the module map marks it [extern_c]) and lacks the setting ids, which
// are SoundTouch.h's SETTING_* values.
#ifndef SLOMO_CSOUNDTOUCH_SHIM_H
#define SLOMO_CSOUNDTOUCH_SHIM_H
#include <SoundTouchDLL.h>

enum {
    SLOMO_ST_SETTING_USE_AA_FILTER = 0,
    SLOMO_ST_SETTING_AA_FILTER_LENGTH = 1,
    SLOMO_ST_SETTING_USE_QUICKSEEK = 2,
    SLOMO_ST_SETTING_SEQUENCE_MS = 3,
    SLOMO_ST_SETTING_SEEKWINDOW_MS = 4,
    SLOMO_ST_SETTING_OVERLAP_MS = 5,
    SLOMO_ST_SETTING_NOMINAL_INPUT_SEQUENCE = 6,
    SLOMO_ST_SETTING_NOMINAL_OUTPUT_SEQUENCE = 7,
    SLOMO_ST_SETTING_INITIAL_LATENCY = 8,
};
#endif
