#include <png.h>

// Composite macros Swift cannot import, as constants.
static const unsigned int CPNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
