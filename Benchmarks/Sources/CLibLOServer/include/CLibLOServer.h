// The reference server of the server benchmarks, written with liblo's server API (Docs/BENCHMARKS.md,
// "Server"): a lo_server on UDP with one method per parameter address `/p/pN f`, which stores the value
// and echoes `/p/pN f v` to every subscriber registered with `/sys/subscribe s url` except the sender.
// No coalescing, no rate limit: every set is one datagram to every other subscriber.
#ifndef CLIBLOSERVER_H
#define CLIBLOSERVER_H

#include <stdint.h>

typedef struct kb_ref_server kb_ref_server;

/// Creates the server on 127.0.0.1-reachable UDP port `port` (0 = a free port) with `parameters`
/// methods `/p/p0` … and starts its receive loop on a thread of its own. NULL on failure.
kb_ref_server *kb_ref_start(int parameters, uint16_t port);
/// The bound UDP port.
uint16_t kb_ref_port(kb_ref_server *server);
/// Sets applied so far (every `/p/pN f` that reached its method).
long kb_ref_applied(kb_ref_server *server);
/// Echo datagrams sent so far, and sends that failed.
long kb_ref_echoes(kb_ref_server *server);
long kb_ref_send_failures(kb_ref_server *server);
/// The stored value of parameter `index`.
float kb_ref_value(kb_ref_server *server, int index);
/// Current subscribers.
int kb_ref_subscribers(kb_ref_server *server);
/// Stops the loop, joins the thread, frees everything.
void kb_ref_stop(kb_ref_server *server);
/// Runs the server on the calling thread until stdin closes (a child process for the memory figure):
/// prints `port N` on stdout when ready. Returns the process exit status.
int kb_ref_serve_until_stdin_closes(int parameters);

#endif
