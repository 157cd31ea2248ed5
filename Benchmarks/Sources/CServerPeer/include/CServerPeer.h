// The peers of the server benchmarks, in C with plain sockets so that both servers (KnobLink and the
// liblo reference) meet exactly the same clients. Every peer is a UDP socket bound to 127.0.0.1:0;
// a subscriber registers with `/sys/subscribe s osc.udp://127.0.0.1:PORT/ s "" f maxHz i 1` from its
// own socket (so with `--feedback-port auto` the subscription belongs to that peer), and counts as
// subscribed once `/sys/update i 0` arrives. Echoes may come as messages or in bundles.
#ifndef CSERVERPEER_H
#define CSERVERPEER_H

#include <stddef.h>
#include <stdint.h>

/// Set → echo latency: a setter socket sends `address f v` (v distinct from the previous value) to the
/// server on `port`, and a subscriber socket waits for the echo carrying v. `count` sets after 1000
/// unmeasured ones; nanoseconds from the send to the echo's arrival into `samples`. `*lost` counts
/// echoes that did not arrive within 200 ms (the set is not resent, and has no sample).
/// Returns the number of samples written, or -1 if the subscription was not confirmed.
long kb_sp_latency(uint16_t port, const char *address, long count, uint64_t *samples, long *lost);

/// Returns how many sets the server has applied so far (its own counter).
typedef long (*kb_sp_applied_fn)(void *context);

typedef struct {
    uint16_t port;
    int subscribers;       // subscriber sockets, each its own peer
    float max_hz;          // the subscriptions' rate (0 = no limit)
    int parameters;        // the server's parameters /p/p0 … /p/p(parameters-1)
    int addresses;         // the sets cycle through the first `addresses` of them
    int per_datagram;      // 1: one set per datagram; more: bundles (time tag 1) of that many sets
    long sets;             // sets to send
    double rate;           // sets per second to offer, 0 = as fast as the setter can send
    kb_sp_applied_fn applied;
    void *context;
} kb_sp_throughput_config;

typedef struct {
    long sent;             // sets handed to the kernel by the setter
    long applied;          // sets the server applied during the run (its counter's increase)
    uint64_t elapsed_ns;   // first send → the server's counter stopped growing (or the last send, if later)
    uint64_t send_ns;      // first send → last send
    long echoes;           // messages for /p/… received by all subscribers (inside bundles counted one by one)
    long echoes_min;       // the fewest any subscriber got
    long echoes_max;
    long datagrams;        // datagrams received by all subscribers
    long stale;            // (subscriber, parameter) pairs whose last echo is not the last value set
    uint64_t last_echo_ns; // first send → last echo received
    int subscribed;        // subscribers whose subscription was confirmed
} kb_sp_throughput_result;

/// Subscribes the subscribers, then sends the sets (in `sendmmsg` batches of 16 datagrams, each one
/// set or a bundle of `per_datagram` sets, paced if `rate` > 0) from one setter socket while a thread counts echoes on every subscriber.
/// Returns 0, or -1 if a subscription was not confirmed.
int kb_sp_throughput(const kb_sp_throughput_config *config, kb_sp_throughput_result *result);

/// The kernel's side of the fan-out, with no server: for every `sets_per_datagram` of `sets` sets,
/// one `sendmmsg` of a datagram to each of `subscribers` loopback sockets, which a thread drains
/// with `recvmmsg`. A datagram is the echo `/p/pN ,f v` (16 bytes), or a bundle of
/// `echoes_per_datagram` of them, as the server packs the latest values of the sets that come
/// faster than it sends (several sets of one address leave one echo). `sets_per_second` counts
/// sets; `received` the datagrams drained. Returns 0, or -1 if a socket could not be opened.
int kb_sp_kernel_fanout(
    int subscribers, int echoes_per_datagram, long sets_per_datagram, long sets, double *sets_per_second,
    long *received);

/// `count` subscriber sockets subscribed to the server on `port` (confirmed), kept open; their
/// descriptors into `fds`. Returns the number confirmed.
int kb_sp_subscribe_peers(uint16_t port, int count, float max_hz, int *fds);
/// Sends `count` sets cycling through `/p/p0` … `/p/p(parameters-1)` from `fd` (one of the peers).
void kb_sp_send_sets(int fd, uint16_t port, int parameters, long count);
/// Reads and discards whatever is queued on the sockets.
void kb_sp_drain(const int *fds, int count);
void kb_sp_close(const int *fds, int count);

/// Starts `argv[0]` with `argv` (NULL-terminated), its stdin on a pipe and its stdout and stderr on
/// another; waits up to `timeout_ms` for a line containing `port N`. Returns N, or -1 on failure;
/// `*pid` and `*stdin_fd` are set either way (the child serves until its stdin closes or SIGTERM).
int kb_sp_spawn_server(char *const argv[], int timeout_ms, int *pid, int *stdin_fd);
/// VmRSS and VmHWM of a process, in KiB (pid 0: this process). Returns 0 on success.
int kb_sp_resident_kib(int pid, long *rss, long *hwm);
/// RssAnon (the process's own memory) and RssFile (pages of mapped files, mostly shared libraries,
/// shared with every process that maps them) from /proc/PID/status, in KiB; 0 on success.
int kb_sp_resident_parts_kib(int pid, long *anon, long *file);
/// Closes the child's stdin and waits for it to exit (SIGTERM to that pid after 1 s). Returns its status.
int kb_sp_end_child(int pid, int stdin_fd);

#endif
