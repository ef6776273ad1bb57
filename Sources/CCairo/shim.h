// cairo 1.16 (Debian's libcairo2-dev): the image, SVG and PDF surfaces that draw slomo's plots.
// Debian installs the headers in /usr/include/cairo; they include each other by bare name,
// which resolves beside the including header.
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
#include <cairo/cairo-svg.h>
