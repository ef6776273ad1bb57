// The one seam through which slomo opens the C libraries it does not link: COnDemand's
// generated functions and its libavfilter/libavdevice tables, and CInterpolate's OpenCV.
#ifndef SLOMO_ON_DEMAND_LOADER_H
#define SLOMO_ON_DEMAND_LOADER_H

#ifdef __cplusplus
extern "C" {
#endif

#define ON_DEMAND_STRING_(text) #text
/// `text` after macro expansion, as a string literal.
#define ON_DEMAND_STRING(text) ON_DEMAND_STRING_(text)
/// An FFmpeg library's soname from its major version, e.g. "libavcodec.so.59".
#define ON_DEMAND_SONAME(name, major) "lib" #name ".so." ON_DEMAND_STRING(major)

/// Opens `soname` (dlopen counts references: calling again is cheap). NULL when it cannot,
/// with `*reason` saying why (the loader's text, valid until this thread's next call here).
void *_Nullable on_demand_open(const char *_Nonnull soname, const char *_Nullable *_Nonnull reason);

/// The address of `name` in `soname`, opening it. When either fails, says so on stderr and
/// ends the process with status 127, as the system's loader does when a linked library is missing.
void *_Nonnull on_demand_symbol(const char *_Nonnull soname, const char *_Nonnull name);

#ifdef __cplusplus
}
#endif

#endif
