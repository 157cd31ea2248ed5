// The liblo reference server as a process of its own, for its resident size (ServerBenchmarks starts it,
// subscribes 64 peers and reads /proc/PID/status). Prints `port N`, serves until stdin closes.
#include "CLibLOServer.h"

#include <stdlib.h>

int main(int argc, char **argv) {
    int parameters = argc > 1 ? atoi(argv[1]) : 1000;
    return kb_ref_serve_until_stdin_closes(parameters);
}
