// The C side of the benchmarks: liblo (the reference peer) and the raw socket (the limit).
// Every loop runs here, in C compiled with -O2, so that no Swift call sits inside a peer's loop.
#ifndef CBENCHPEER_H
#define CBENCHPEER_H

#include <stddef.h>
#include <stdint.h>

/// The wall clock both sides read in the UDP scenarios: CLOCK_MONOTONIC in nanoseconds.
uint64_t kb_now_ns(void);
/// The clock of the CPU-bound scenarios (codec, dispatch): CPU time of the calling thread
/// (CLOCK_THREAD_CPUTIME_ID), so that time the thread spends preempted by other processes on a
/// shared machine is not counted.
uint64_t kb_cpu_ns(void);

/// Codec scenarios (see Docs/BENCHMARKS.md for what each one does). Each runs `iterations` times
/// and returns the elapsed CPU nanoseconds; `*sink` accumulates values so that nothing is optimised away.
enum kb_scenario {
    KB_GAIN = 0,    // /knob/gain ,f 0.5
    KB_MIXED = 1,   // /synth/1/note ,ifsbThd 60 0.8 "piano" <64-byte blob> T 1234567890123 3.14159
    KB_BUNDLE = 2,  // #bundle, time tag 1, 16 KB_MIXED messages
};
uint64_t kb_lo_encode(int scenario, long iterations, uint64_t *sink);
uint64_t kb_lo_decode(int scenario, long iterations, uint64_t *sink);
/// lo_message_deserialise of `data`, every argument read, lo_message_free: liblo's decoding alone.
uint64_t kb_lo_decode_bytes(const uint8_t *data, size_t size, long iterations, uint64_t *sink);

/// The packet liblo writes for a scenario, so that the Swift side can check it encodes the same bytes.
/// Returns the size, or 0 if `capacity` is too small.
size_t kb_lo_packet(int scenario, uint8_t *out, size_t capacity);

/// A liblo server with 100 methods /knob/p0 ... /knob/p99 (type spec "f"), for dispatch.
void *kb_lo_dispatch_new(void);
/// Runs lo_server_dispatch_data on `data` `iterations` times; `*calls` counts handler calls.
uint64_t kb_lo_dispatch(void *server, const uint8_t *data, size_t size, long iterations, long *calls);
void kb_lo_dispatch_free(void *server);

/// Pins the calling thread to one CPU; returns 0 on success.
int kb_pin_thread(int cpu);
/// Sets the affinity of every thread of the process to the CPUs in `mask` (bit i = CPU i).
int kb_pin_process(uint64_t mask);
/// Context switches of the whole process so far (voluntary and involuntary, all threads).
long kb_context_switches(void);
/// The CPU the calling thread runs on.
int kb_current_cpu(void);

/// UDP loopback throughput: one sender thread, one receiver thread, `count` datagrams of
/// /knob/gain ,f 0.5 (20 bytes). The receiver stops at `count` or 300 ms after the sender's last send.
typedef struct {
    uint64_t elapsed_ns;  // from the sender's first send to the receiver's last receive
    long received;        // counted at the receiver
    long sent;
    uint64_t send_ns;     // from the first send to the return of the last
} kb_udp_result;
/// mode 0: sendto/recvfrom; mode 1: sendmmsg/recvmmsg in batches of 64.
kb_udp_result kb_raw_udp_throughput(long count, int mode);
/// liblo: lo_send to a lo_server whose method counts, received by lo_server_recv_noblock on a thread.
kb_udp_result kb_lo_udp_throughput(long count);

/// UDP round trips: `count` ping-pongs after 1000 unmeasured ones, nanoseconds per round trip
/// into `samples`. apart = 1 pins the client thread to CPU 0 and the echo thread to CPU 1;
/// apart = 0 leaves the placement to the process affinity. `cpus` gets the CPUs seen by
/// the client (cpus[0]) and the echo thread (cpus[1]). Returns 0 on success.
int kb_raw_udp_rtt(long count, uint64_t *samples, int apart, int *cpus);
int kb_lo_udp_rtt(long count, uint64_t *samples, int apart, int *cpus);

/// The 20 bytes of /knob/gain ,f 0.5 as the raw socket sends them.
extern const uint8_t kb_gain_packet[20];

/// Raw socket helpers for the Swift side, which sends with KnobLink and may need a plain UDP peer.
int kb_udp_socket_bound(uint16_t *port);  // a socket bound to 127.0.0.1:0 with a 4 MiB receive buffer

#endif
