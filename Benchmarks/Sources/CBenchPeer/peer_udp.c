// UDP loopback: the raw socket (the limit) and liblo, throughput and round trips.
#define _GNU_SOURCE
#include "CBenchPeer.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <lo/lo.h>
#include <lo/lo_lowlevel.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

const uint8_t kb_gain_packet[20] = {
    '/', 'k', 'n', 'o', 'b', '/', 'g', 'a', 'i', 'n', 0, 0, ',', 'f', 0, 0, 0x3f, 0x00, 0x00, 0x00,
};

enum { RCVBUF = 4 << 20, IDLE_NS = 300000000, BATCH = 64 };

int kb_pin_thread(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

int kb_pin_process(uint64_t mask) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < 64; i++)
        if (mask & (1ull << i)) CPU_SET(i, &set);
    DIR *dir = opendir("/proc/self/task");
    if (!dir) return -1;
    struct dirent *entry;
    int status = 0;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        pid_t tid = (pid_t)atoi(entry->d_name);
        if (sched_setaffinity(tid, sizeof set, &set) != 0) status = -1;
    }
    closedir(dir);
    return status;
}

int kb_current_cpu(void) { return sched_getcpu(); }

int kb_udp_socket_bound(uint16_t *port) {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) return -1;
    int size = RCVBUF;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    socklen_t len = sizeof addr;
    getsockname(fd, (struct sockaddr *)&addr, &len);
    *port = ntohs(addr.sin_port);
    return fd;
}

static struct sockaddr_in loopback(uint16_t port) {
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    return addr;
}

// ---- throughput ----

typedef struct {
    int fd;
    int mode;
    long count;
    lo_server lo;
    atomic_long received;
    atomic_int sender_done;
    atomic_ullong sender_done_ns;
    uint64_t last_receive_ns;
} thru_ctx;

static int idle_expired(thru_ctx *ctx) {
    if (!atomic_load(&ctx->sender_done)) return 0;
    return kb_now_ns() - atomic_load(&ctx->sender_done_ns) > IDLE_NS;
}

static void *raw_receiver(void *arg) {
    thru_ctx *ctx = arg;
    uint8_t buffers[BATCH][64];
    struct mmsghdr msgs[BATCH];
    struct iovec iovs[BATCH];
    for (int i = 0; i < BATCH; i++) {
        iovs[i] = (struct iovec){buffers[i], sizeof buffers[i]};
        msgs[i] = (struct mmsghdr){.msg_hdr = {.msg_iov = &iovs[i], .msg_iovlen = 1}};
    }
    // Blocking calls, as a plain receiver is written; the timeout only lets it notice the end.
    struct timeval timeout = {.tv_sec = 0, .tv_usec = 20000};
    setsockopt(ctx->fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    while (atomic_load(&ctx->received) < ctx->count && !idle_expired(ctx)) {
        long got;
        if (ctx->mode == 0) {
            struct sockaddr_in from;
            socklen_t len = sizeof from;
            ssize_t n = recvfrom(ctx->fd, buffers[0], sizeof buffers[0], 0, (struct sockaddr *)&from, &len);
            got = n >= 0 ? 1 : 0;
        } else {
            int n = recvmmsg(ctx->fd, msgs, BATCH, MSG_WAITFORONE, NULL);
            got = n > 0 ? n : 0;
        }
        if (got > 0) {
            atomic_fetch_add_explicit(&ctx->received, got, memory_order_relaxed);
            ctx->last_receive_ns = kb_now_ns();
        }
    }
    return NULL;
}

kb_udp_result kb_raw_udp_throughput(long count, int mode) {
    thru_ctx ctx = {.mode = mode, .count = count};
    uint16_t port;
    ctx.fd = kb_udp_socket_bound(&port);
    int out = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in to = loopback(port);
    connect(out, (struct sockaddr *)&to, sizeof to);
    pthread_t thread;
    pthread_create(&thread, NULL, raw_receiver, &ctx);
    struct mmsghdr msgs[BATCH];
    struct iovec iov = {(void *)kb_gain_packet, sizeof kb_gain_packet};
    for (int i = 0; i < BATCH; i++) msgs[i] = (struct mmsghdr){.msg_hdr = {.msg_iov = &iov, .msg_iovlen = 1}};
    long sent = 0;
    uint64_t start = kb_now_ns();
    if (mode == 0) {
        for (long i = 0; i < count; i++)
            if (sendto(out, kb_gain_packet, sizeof kb_gain_packet, 0, NULL, 0) == sizeof kb_gain_packet) sent++;
    } else {
        while (sent < count) {
            long want = count - sent < BATCH ? count - sent : BATCH;
            int n = sendmmsg(out, msgs, (unsigned)want, 0);
            if (n > 0) sent += n;
            else if (errno != EINTR && errno != EAGAIN && errno != ENOBUFS) break;
        }
    }
    uint64_t send_end = kb_now_ns();
    atomic_store(&ctx.sender_done_ns, send_end);
    atomic_store(&ctx.sender_done, 1);
    pthread_join(thread, NULL);
    close(out);
    close(ctx.fd);
    return (kb_udp_result){ctx.last_receive_ns - start, atomic_load(&ctx.received), sent, send_end - start};
}

static int lo_count_handler(const char *path, const char *types, lo_arg **argv, int argc, lo_message m,
                            void *user_data) {
    (void)path; (void)types; (void)argc; (void)m;
    thru_ctx *ctx = user_data;
    if (argv[0]->f == 0.5f) atomic_fetch_add_explicit(&ctx->received, 1, memory_order_relaxed);
    ctx->last_receive_ns = kb_now_ns();
    return 0;
}

static void lo_error(int num, const char *msg, const char *where) {
    fprintf(stderr, "liblo error %d: %s (%s)\n", num, msg ? msg : "", where ? where : "");
}

static void *lo_receiver(void *arg) {
    thru_ctx *ctx = arg;
    while (atomic_load(&ctx->received) < ctx->count && !idle_expired(ctx)) lo_server_recv_noblock(ctx->lo, 20);
    return NULL;
}

static lo_server lo_server_bigbuf(void) {
    lo_server s = lo_server_new_with_proto(NULL, LO_UDP, lo_error);
    if (!s) abort();
    // The same receive buffer as every other receiver here: liblo's 208 KiB default loses bursts.
    int size = RCVBUF;
    setsockopt(lo_server_get_socket_fd(s), SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    return s;
}

kb_udp_result kb_lo_udp_throughput(long count) {
    thru_ctx ctx = {.count = count};
    ctx.lo = lo_server_bigbuf();
    lo_server_add_method(ctx.lo, "/knob/gain", "f", lo_count_handler, &ctx);
    char port[16];
    snprintf(port, sizeof port, "%d", lo_server_get_port(ctx.lo));
    lo_address target = lo_address_new("127.0.0.1", port);
    pthread_t thread;
    pthread_create(&thread, NULL, lo_receiver, &ctx);
    long sent = 0;
    uint64_t start = kb_now_ns();
    for (long i = 0; i < count; i++)
        if (lo_send(target, "/knob/gain", "f", 0.5f) > 0) sent++;
    uint64_t send_end = kb_now_ns();
    atomic_store(&ctx.sender_done_ns, send_end);
    atomic_store(&ctx.sender_done, 1);
    pthread_join(thread, NULL);
    lo_address_free(target);
    lo_server_free(ctx.lo);
    return (kb_udp_result){ctx.last_receive_ns - start, atomic_load(&ctx.received), sent, send_end - start};
}

// ---- round trips ----

enum { WARMUP = 1000 };

typedef struct {
    int fd;
    lo_server lo;
    int pin;
    int cpu;
    atomic_int stop;
} echo_ctx;

static void *raw_echo(void *arg) {
    echo_ctx *ctx = arg;
    if (ctx->pin >= 0) kb_pin_thread(ctx->pin);
    ctx->cpu = sched_getcpu();
    uint8_t buffer[256];
    struct sockaddr_in from;
    for (;;) {
        socklen_t len = sizeof from;
        ssize_t n = recvfrom(ctx->fd, buffer, sizeof buffer, 0, (struct sockaddr *)&from, &len);
        if (n == 1) break;  // the stop datagram
        if (n > 0) sendto(ctx->fd, buffer, (size_t)n, 0, (struct sockaddr *)&from, len);
    }
    return NULL;
}

int kb_raw_udp_rtt(long count, uint64_t *samples, int apart, int *cpus) {
    echo_ctx ctx = {.pin = apart ? 1 : -1};
    uint16_t port;
    ctx.fd = kb_udp_socket_bound(&port);
    pthread_t thread;
    pthread_create(&thread, NULL, raw_echo, &ctx);
    uint16_t client_port;
    int fd = kb_udp_socket_bound(&client_port);
    struct sockaddr_in to = loopback(port);
    connect(fd, (struct sockaddr *)&to, sizeof to);
    cpu_set_t saved;
    pthread_getaffinity_np(pthread_self(), sizeof saved, &saved);
    if (apart) kb_pin_thread(0);
    cpus[0] = sched_getcpu();
    uint8_t buffer[256];
    int status = 0;
    for (long i = -WARMUP; i < count; i++) {
        uint64_t t0 = kb_now_ns();
        if (send(fd, kb_gain_packet, sizeof kb_gain_packet, 0) != sizeof kb_gain_packet) { status = -1; break; }
        if (recv(fd, buffer, sizeof buffer, 0) != sizeof kb_gain_packet) { status = -1; break; }
        uint64_t t1 = kb_now_ns();
        if (i >= 0) samples[i] = t1 - t0;
    }
    send(fd, "x", 1, 0);
    pthread_join(thread, NULL);
    pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
    cpus[1] = ctx.cpu;
    close(fd);
    close(ctx.fd);
    return status;
}

typedef struct {
    lo_server server;
    int replies;
} lo_client_ctx;

static int lo_echo_handler(const char *path, const char *types, lo_arg **argv, int argc, lo_message m,
                           void *user_data) {
    (void)types; (void)argv; (void)argc;
    echo_ctx *ctx = user_data;
    lo_send_message_from(lo_message_get_source(m), ctx->lo, path, m);
    return 0;
}

static int lo_stop_handler(const char *path, const char *types, lo_arg **argv, int argc, lo_message m,
                           void *user_data) {
    (void)path; (void)types; (void)argv; (void)argc; (void)m;
    echo_ctx *ctx = user_data;
    atomic_store(&ctx->stop, 1);
    return 0;
}

static int lo_reply_handler(const char *path, const char *types, lo_arg **argv, int argc, lo_message m,
                            void *user_data) {
    (void)path; (void)types; (void)argv; (void)argc; (void)m;
    lo_client_ctx *ctx = user_data;
    ctx->replies++;
    return 0;
}

static void *lo_echo(void *arg) {
    echo_ctx *ctx = arg;
    if (ctx->pin >= 0) kb_pin_thread(ctx->pin);
    ctx->cpu = sched_getcpu();
    while (!atomic_load(&ctx->stop)) lo_server_recv(ctx->lo);
    return NULL;
}

int kb_lo_udp_rtt(long count, uint64_t *samples, int apart, int *cpus) {
    echo_ctx ctx = {.pin = apart ? 1 : -1};
    ctx.lo = lo_server_bigbuf();
    lo_server_add_method(ctx.lo, "/knob/gain", "f", lo_echo_handler, &ctx);
    lo_server_add_method(ctx.lo, "/stop", NULL, lo_stop_handler, &ctx);
    char port[16];
    snprintf(port, sizeof port, "%d", lo_server_get_port(ctx.lo));
    pthread_t thread;
    pthread_create(&thread, NULL, lo_echo, &ctx);

    lo_client_ctx client = {.server = lo_server_bigbuf()};
    lo_server_add_method(client.server, "/knob/gain", "f", lo_reply_handler, &client);
    lo_address target = lo_address_new("127.0.0.1", port);
    lo_message message = lo_message_new();
    lo_message_add_float(message, 0.5f);
    cpu_set_t saved;
    pthread_getaffinity_np(pthread_self(), sizeof saved, &saved);
    if (apart) kb_pin_thread(0);
    cpus[0] = sched_getcpu();
    int status = 0;
    for (long i = -WARMUP; i < count; i++) {
        uint64_t t0 = kb_now_ns();
        int before = client.replies;
        if (lo_send_message_from(target, client.server, "/knob/gain", message) < 0) { status = -1; break; }
        while (client.replies == before) {
            if (lo_server_recv_noblock(client.server, 1000) == 0) { status = -1; break; }
        }
        if (status) break;
        uint64_t t1 = kb_now_ns();
        if (i >= 0) samples[i] = t1 - t0;
    }
    lo_send_from(target, client.server, LO_TT_IMMEDIATE, "/stop", "");
    pthread_join(thread, NULL);
    pthread_setaffinity_np(pthread_self(), sizeof saved, &saved);
    cpus[1] = ctx.cpu;
    lo_message_free(message);
    lo_address_free(target);
    lo_server_free(client.server);
    lo_server_free(ctx.lo);
    return status;
}

long kb_context_switches(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_nvcsw + usage.ru_nivcsw;
}
