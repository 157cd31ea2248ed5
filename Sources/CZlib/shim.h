// zlib's C API: deflate and CRC-32 for the PNG encoder of the Waveform module.
#include <zlib.h>
