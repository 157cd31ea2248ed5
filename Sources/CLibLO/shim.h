// liblo's C API, the reference peer for differential tests and benchmarks (never linked into the product).
#include <lo/lo.h>
#include <lo/lo_lowlevel.h>
