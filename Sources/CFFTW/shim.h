// Single-precision FFTW (Debian's libfftw3-dev): the spectral engine's real FFTs.
#include <fftw3.h>
