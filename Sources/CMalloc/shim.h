// glibc's allocator controls (malloc_trim, mallopt), which the Glibc module does not bring in.
#include <malloc.h>
