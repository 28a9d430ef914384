// OpenBLAS's CBLAS and the reference LAPACKE, from Debian's libopenblas-dev and liblapacke-dev.
#include <cblas.h>
#include <lapacke.h>
