// audiowaveform's loop as a whole process, for the whole-process row of the waveform suite:
//   waveform-loop INPUT OUTPUT.dat [ZOOM]
// audiowaveform itself is not packaged for Debian; this is its algorithm (Sources/
// CWaveformReference). Scripts/bench.sh builds it with the toolchain's clang -O2, linked with
// libsndfile alone: as a SwiftPM target it would load the Swift runtime too, which a C program
// does not. Without arguments it prints its usage and exits at once: its start alone.
#include <stdio.h>
#include <stdlib.h>

#include "waveform_reference.h"

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s INPUT OUTPUT.dat [ZOOM]\n", argv[0]);
        return 64;
    }
    return kb_wf_reference_dat(argv[1], argc > 3 ? atoi(argv[3]) : 256, argv[2]);
}
