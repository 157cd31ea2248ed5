// The peers of the server benchmarks (see CServerPeer.h).
#define _GNU_SOURCE
#include "CServerPeer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { RCVBUF = 4 << 20, WARMUP = 1000, BATCH = 16, MAX_DATAGRAM = 65536 };

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int peer_socket(uint16_t *port) {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) return -1;
    int size = RCVBUF;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    socklen_t len = sizeof addr;
    getsockname(fd, (struct sockaddr *)&addr, &len);
    if (port) *port = ntohs(addr.sin_port);
    return fd;
}

static struct sockaddr_in server_address(uint16_t port) {
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    return addr;
}

// ---- OSC, just what the peers need ----

static size_t put_string(uint8_t *out, const char *text) {
    size_t length = strlen(text);
    size_t padded = (length + 4) & ~(size_t)3;
    memset(out, 0, padded);
    memcpy(out, text, length);
    return padded;
}

static size_t put_u32(uint8_t *out, uint32_t value) {
    value = htonl(value);
    memcpy(out, &value, 4);
    return 4;
}

static size_t put_float(uint8_t *out, float value) {
    uint32_t bits;
    memcpy(&bits, &value, 4);
    return put_u32(out, bits);
}

/// `address ,f value`; returns the size and, in `*value_offset`, where the float sits.
static size_t encode_set(uint8_t *out, const char *address, float value, size_t *value_offset) {
    size_t n = put_string(out, address);
    n += put_string(out + n, ",f");
    if (value_offset) *value_offset = n;
    n += put_float(out + n, value);
    return n;
}

static size_t encode_subscribe(uint8_t *out, uint16_t own_port, float max_hz) {
    char url[64];
    snprintf(url, sizeof url, "osc.udp://127.0.0.1:%u/", (unsigned)own_port);
    size_t n = put_string(out, "/sys/subscribe");
    n += put_string(out + n, ",ssfi");
    n += put_string(out + n, url);
    n += put_string(out + n, "");
    n += put_float(out + n, max_hz);
    n += put_u32(out + n, 1);
    return n;
}

static uint32_t get_u32(const uint8_t *p) {
    uint32_t value;
    memcpy(&value, p, 4);
    return ntohl(value);
}

static size_t padded_string_length(const uint8_t *p, size_t size) {
    size_t length = strnlen((const char *)p, size);
    if (length == size) return 0;
    size_t padded = (length + 4) & ~(size_t)3;
    return padded <= size ? padded : 0;
}

typedef void (*message_fn)(void *context, const char *address, char tag, const uint8_t *argument);

/// Calls `fn` for every message of a packet (bundles walked), with its first argument's tag and bytes.
static void visit_messages(const uint8_t *p, size_t size, message_fn fn, void *context, int depth) {
    if (depth > 8) return;
    if (size >= 16 && memcmp(p, "#bundle", 8) == 0) {
        size_t offset = 16;
        while (offset + 4 <= size) {
            uint32_t element = get_u32(p + offset);
            offset += 4;
            if (element > size - offset) return;
            visit_messages(p + offset, element, fn, context, depth + 1);
            offset += element;
        }
        return;
    }
    size_t address_length = padded_string_length(p, size);
    if (address_length == 0 || address_length >= size || p[address_length] != ',') return;
    size_t tags_length = padded_string_length(p + address_length, size - address_length);
    if (tags_length == 0) return;
    size_t arguments = address_length + tags_length;
    char tag = (char)p[address_length + 1];
    if (tag && arguments + 4 > size) return;
    fn(context, (const char *)p, tag, tag ? p + arguments : NULL);
}

static float argument_float(char tag, const uint8_t *argument) {
    uint32_t bits = get_u32(argument);
    if (tag == 'i') return (float)(int32_t)bits;
    float value;
    memcpy(&value, &bits, 4);
    return value;
}

// ---- subscribing ----

typedef struct {
    int confirmed;
} confirm_state;

static void confirm_visit(void *context, const char *address, char tag, const uint8_t *argument) {
    confirm_state *state = context;
    if (strcmp(address, "/sys/update") == 0 && tag == 'i' && get_u32(argument) == 0) state->confirmed = 1;
}

/// Sends the subscription from `fd` and reads until `/sys/update i 0` (up to 3 s, resending once a second).
static int subscribe(int fd, uint16_t own_port, uint16_t server_port, float max_hz) {
    uint8_t packet[256];
    size_t size = encode_subscribe(packet, own_port, max_hz);
    struct sockaddr_in to = server_address(server_port);
    static uint8_t buffer[MAX_DATAGRAM];
    confirm_state state = {0};
    for (int attempt = 0; attempt < 3 && !state.confirmed; attempt++) {
        sendto(fd, packet, size, 0, (struct sockaddr *)&to, sizeof to);
        uint64_t deadline = now_ns() + 1000000000u;
        while (!state.confirmed && now_ns() < deadline) {
            struct pollfd pfd = {.fd = fd, .events = POLLIN};
            if (poll(&pfd, 1, 50) <= 0) continue;
            ssize_t n = recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
            if (n > 0) visit_messages(buffer, (size_t)n, confirm_visit, &state, 0);
        }
    }
    return state.confirmed;
}

int kb_sp_subscribe_peers(uint16_t port, int count, float max_hz, int *fds) {
    int confirmed = 0;
    for (int i = 0; i < count; i++) {
        uint16_t own;
        fds[i] = peer_socket(&own);
        if (fds[i] >= 0 && subscribe(fds[i], own, port, max_hz)) confirmed++;
    }
    return confirmed;
}

void kb_sp_drain(const int *fds, int count) {
    static uint8_t buffer[MAX_DATAGRAM];
    for (int i = 0; i < count; i++)
        while (recv(fds[i], buffer, sizeof buffer, MSG_DONTWAIT) > 0) {}
}

void kb_sp_close(const int *fds, int count) {
    for (int i = 0; i < count; i++)
        if (fds[i] >= 0) close(fds[i]);
}

/// The value of the k-th set of one parameter: never equal to the previous one nor to 0 (the defaults).
static float nth_value(long k) { return (float)(k % 1000 + 1) / 1001.0f; }

void kb_sp_send_sets(int fd, uint16_t port, int parameters, long count) {
    struct sockaddr_in to = server_address(port);
    uint8_t packet[64];
    char address[32];
    for (long i = 0; i < count; i++) {
        snprintf(address, sizeof address, "/p/p%ld", i % parameters);
        size_t size = encode_set(packet, address, nth_value(i / parameters), NULL);
        sendto(fd, packet, size, 0, (struct sockaddr *)&to, sizeof to);
    }
}

// ---- latency ----

typedef struct {
    const char *address;
    float expected;
    int found;
} echo_state;

static void echo_visit(void *context, const char *address, char tag, const uint8_t *argument) {
    echo_state *state = context;
    if ((tag == 'f' || tag == 'i') && strcmp(address, state->address) == 0 &&
        fabsf(argument_float(tag, argument) - state->expected) < 1e-4f)
        state->found = 1;
}

long kb_sp_latency(uint16_t port, const char *address, long count, uint64_t *samples, long *lost) {
    uint16_t subscriber_port;
    int subscriber = peer_socket(&subscriber_port);
    int setter = peer_socket(NULL);
    long written = -1;
    *lost = 0;
    if (subscriber < 0 || setter < 0) goto done;
    if (!subscribe(subscriber, subscriber_port, port, 0)) goto done;
    struct sockaddr_in to = server_address(port);
    connect(setter, (struct sockaddr *)&to, sizeof to);
    uint8_t packet[64];
    size_t value_offset;
    size_t size = encode_set(packet, address, 0, &value_offset);
    static uint8_t buffer[MAX_DATAGRAM];
    written = 0;
    int missed_in_a_row = 0;
    for (long i = -WARMUP; i < count && missed_in_a_row < 20; i++) {
        echo_state state = {.address = address, .expected = nth_value(i + WARMUP)};
        put_float(packet + value_offset, state.expected);
        uint64_t start = now_ns();
        send(setter, packet, size, 0);
        uint64_t deadline = start + 200000000u;
        while (!state.found) {
            ssize_t n = recv(subscriber, buffer, sizeof buffer, MSG_DONTWAIT);
            if (n > 0) {
                visit_messages(buffer, (size_t)n, echo_visit, &state, 0);
                continue;
            }
            uint64_t now = now_ns();
            if (now >= deadline) break;
            struct pollfd pfd = {.fd = subscriber, .events = POLLIN};
            poll(&pfd, 1, (int)((deadline - now) / 1000000u) + 1);
        }
        uint64_t end = now_ns();
        // The setter's own socket gets corrections or nothing; keep it from filling up.
        while (recv(setter, buffer, sizeof buffer, MSG_DONTWAIT) > 0) {}
        if (!state.found) {
            // A server that stopped echoing: give up after 20 in a row (4 s) rather than wait for every set.
            missed_in_a_row++;
            if (i >= 0) (*lost)++;
            continue;
        }
        missed_in_a_row = 0;
        if (i >= 0) samples[written++] = end - start;
    }
done:
    if (subscriber >= 0) close(subscriber);
    if (setter >= 0) close(setter);
    return written;
}

// ---- throughput ----

typedef struct {
    const kb_sp_throughput_config *config;
    int *fds;
    int epoll_fd;
    long *echoes;        // per subscriber
    float *last;         // per subscriber × parameter
    long datagrams;
    atomic_int stop;
    atomic_ullong last_echo_ns;
} receiver_state;

typedef struct {
    receiver_state *receiver;
    int subscriber;
} count_context;

static void count_visit(void *context, const char *address, char tag, const uint8_t *argument) {
    count_context *count = context;
    if (strncmp(address, "/p/p", 4) != 0 || (tag != 'f' && tag != 'i')) return;
    int index = atoi(address + 4);
    receiver_state *state = count->receiver;
    if (index < 0 || index >= state->config->parameters) return;
    state->echoes[count->subscriber]++;
    state->last[(size_t)count->subscriber * (size_t)state->config->parameters + (size_t)index] =
        argument_float(tag, argument);
}

// Receives up to `count` datagrams from `fd` without waiting into `buffers` (`count` of `size`
// bytes each); their lengths are in `messages`. Returns how many, or <= 0 for none.
static int receive_batch(int fd, uint8_t *buffers, size_t size, struct mmsghdr *messages, struct iovec *iovs,
                         int count) {
    for (int i = 0; i < count; i++) {
        iovs[i] = (struct iovec){buffers + (size_t)i * size, size};
        messages[i] = (struct mmsghdr){.msg_hdr = {.msg_iov = &iovs[i], .msg_iovlen = 1}};
    }
    return recvmmsg(fd, messages, (unsigned)count, MSG_DONTWAIT, NULL);
}

static void *receiver_loop(void *arg) {
    receiver_state *state = arg;
    enum { RECV_BATCH = 32 };
    static uint8_t buffers[RECV_BATCH][8192 + 64];
    struct mmsghdr messages[RECV_BATCH];
    struct iovec iovs[RECV_BATCH];
    struct epoll_event events[64];
    while (!atomic_load_explicit(&state->stop, memory_order_relaxed)) {
        int ready = epoll_wait(state->epoll_fd, events, 64, 10);
        for (int e = 0; e < ready; e++) {
            int subscriber = (int)events[e].data.u32;
            for (;;) {
                int n = receive_batch(state->fds[subscriber], &buffers[0][0], sizeof buffers[0], messages, iovs,
                                      RECV_BATCH);
                if (n <= 0) break;
                count_context count = {state, subscriber};
                for (int i = 0; i < n; i++)
                    visit_messages(buffers[i], messages[i].msg_len, count_visit, &count, 0);
                state->datagrams += n;
                atomic_store_explicit(&state->last_echo_ns, now_ns(), memory_order_relaxed);
            }
        }
    }
    return NULL;
}

static void sleep_until(uint64_t when) {
    uint64_t now = now_ns();
    if (when <= now) return;
    struct timespec t = {.tv_sec = 0, .tv_nsec = (long)(when - now)};
    nanosleep(&t, NULL);
}

int kb_sp_throughput(const kb_sp_throughput_config *config, kb_sp_throughput_result *result) {
    memset(result, 0, sizeof *result);
    int count = config->subscribers;
    int parameters = config->parameters;
    receiver_state state = {.config = config};
    state.fds = calloc((size_t)count, sizeof *state.fds);
    state.echoes = calloc((size_t)count, sizeof *state.echoes);
    state.last = calloc((size_t)count * (size_t)parameters, sizeof *state.last);
    float *final = calloc((size_t)parameters, sizeof *final);
    int *touched = calloc((size_t)parameters, sizeof *touched);
    result->subscribed = kb_sp_subscribe_peers(config->port, count, config->max_hz, state.fds);
    kb_sp_drain(state.fds, count);
    int status = 0;
    if (result->subscribed != count) {
        status = -1;
        goto done;
    }
    state.epoll_fd = epoll_create1(0);
    for (int i = 0; i < count; i++) {
        struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(state.epoll_fd, EPOLL_CTL_ADD, state.fds[i], &event);
    }
    pthread_t thread;
    pthread_create(&thread, NULL, receiver_loop, &state);

    // Every parameter's set, encoded once; each send patches the value.
    uint8_t (*packets)[32] = calloc((size_t)parameters, sizeof *packets);
    size_t *sizes = calloc((size_t)parameters, sizeof *sizes);
    for (int p = 0; p < parameters; p++) {
        char address[32];
        snprintf(address, sizeof address, "/p/p%d", p);
        sizes[p] = encode_set(packets[p], address, 0, NULL);
    }
    uint16_t setter_port;
    int setter = peer_socket(&setter_port);
    struct sockaddr_in to = server_address(config->port);
    connect(setter, (struct sockaddr *)&to, sizeof to);
    enum { MAX_PER_DATAGRAM = 64 };
    int per_datagram = config->per_datagram < 1 ? 1 : config->per_datagram > MAX_PER_DATAGRAM ? MAX_PER_DATAGRAM
                                                                                                : config->per_datagram;
    static uint8_t batch[BATCH][16 + MAX_PER_DATAGRAM * 36];
    struct iovec iovs[BATCH];
    struct mmsghdr messages[BATCH];
    long applied_before = config->applied(config->context);
    uint64_t start = now_ns();
    long sent = 0;  // sets, not datagrams
    static uint8_t scratch[MAX_DATAGRAM];
    while (sent < config->sets) {
        int n = 0;
        long next = sent;
        for (; n < BATCH && next < config->sets; n++) {
            size_t size = 0;
            if (per_datagram > 1) {
                memcpy(batch[n], "#bundle\0", 8);
                put_u32(batch[n] + 8, 0);
                put_u32(batch[n] + 12, 1);  // time tag 1: immediately
                size = 16;
            }
            for (int k = 0; k < per_datagram && next < config->sets; k++, next++) {
                int p = (int)(next % config->addresses);
                float value = nth_value(next / config->addresses);
                final[p] = value;
                touched[p] = 1;
                uint8_t *out = batch[n] + size + (per_datagram > 1 ? 4 : 0);
                memcpy(out, packets[p], sizes[p]);
                // Every set ends with its float; the address before it varies in length.
                put_float(out + sizes[p] - 4, value);
                if (per_datagram > 1) put_u32(batch[n] + size, (uint32_t)sizes[p]);
                size += sizes[p] + (per_datagram > 1 ? 4 : 0);
            }
            iovs[n] = (struct iovec){batch[n], size};
            messages[n] = (struct mmsghdr){.msg_hdr = {.msg_iov = &iovs[n], .msg_iovlen = 1}};
        }
        if (config->rate > 0) sleep_until(start + (uint64_t)((double)sent * 1e9 / config->rate));
        int done_now = sendmmsg(setter, messages, (unsigned)n, 0);
        if (done_now == n) sent = next;
        else if (done_now > 0) sent += (long)done_now * per_datagram;  // a short batch: whole bundles were sent
        else if (errno != EINTR && errno != EAGAIN && errno != ENOBUFS) break;
        // Corrections or first values for the setter: not counted, kept from filling its buffer.
        while (recv(setter, scratch, sizeof scratch, MSG_DONTWAIT) > 0) {}
    }
    uint64_t send_end = now_ns();
    // The server may still be working through its receive queue, and a 30 Hz subscriber's last bundle is
    // due up to 33 ms later: poll the server's counter every millisecond until
    // neither it nor the echoes have moved for 300 ms. A loaded machine can stall a loop for 100 ms.
    long applied = config->applied(config->context);
    uint64_t last_change = send_end;
    for (;;) {
        struct timespec t = {.tv_sec = 0, .tv_nsec = 1000000};
        nanosleep(&t, NULL);
        long now_applied = config->applied(config->context);
        uint64_t now = now_ns();
        if (now_applied != applied) {
            applied = now_applied;
            last_change = now;
        }
        uint64_t last_echo = atomic_load(&state.last_echo_ns);
        uint64_t quiet_since = last_echo > last_change ? last_echo : last_change;
        if (now - quiet_since > 300000000u) break;
    }
    atomic_store(&state.stop, 1);
    pthread_join(thread, NULL);
    close(state.epoll_fd);
    close(setter);
    free(packets);
    free(sizes);

    result->sent = sent;
    result->applied = applied - applied_before;
    result->send_ns = send_end - start;
    uint64_t end = last_change > send_end ? last_change : send_end;
    result->elapsed_ns = end - start;
    uint64_t last_echo = atomic_load(&state.last_echo_ns);
    result->last_echo_ns = last_echo > start ? last_echo - start : 0;
    result->datagrams = state.datagrams;
    result->echoes_min = -1;
    for (int s = 0; s < count; s++) {
        result->echoes += state.echoes[s];
        if (result->echoes_min < 0 || state.echoes[s] < result->echoes_min) result->echoes_min = state.echoes[s];
        if (state.echoes[s] > result->echoes_max) result->echoes_max = state.echoes[s];
        for (int p = 0; p < parameters; p++)
            if (touched[p] && fabsf(state.last[(size_t)s * (size_t)parameters + (size_t)p] - final[p]) > 1e-4f)
                result->stale++;
    }
done:
    kb_sp_close(state.fds, count);
    free(state.fds);
    free(state.echoes);
    free(state.last);
    free(final);
    free(touched);
    return status;
}

// ---- child processes ----

int kb_sp_spawn_server(char *const argv[], int timeout_ms, int *pid, int *stdin_fd) {
    int in[2], out[2];
    *pid = -1;
    *stdin_fd = -1;
    if (pipe2(in, O_CLOEXEC) != 0) return -1;
    if (pipe2(out, O_CLOEXEC) != 0) return -1;
    pid_t child = fork();
    if (child < 0) return -1;
    if (child == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        // `knoblink serve` announces its port on stderr (`Listening on UDP and TCP port N`).
        dup2(out[1], 2);
        execv(argv[0], argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    *pid = child;
    *stdin_fd = in[1];
    char line[128];
    size_t used = 0;
    int port = -1;
    uint64_t deadline = now_ns() + (uint64_t)timeout_ms * 1000000u;
    while (port < 0 && now_ns() < deadline && used < sizeof line - 1) {
        struct pollfd pfd = {.fd = out[0], .events = POLLIN};
        if (poll(&pfd, 1, 50) <= 0) continue;
        ssize_t n = read(out[0], line + used, sizeof line - 1 - used);
        if (n <= 0) break;
        used += (size_t)n;
        line[used] = 0;
        char *found = strstr(line, "port ");
        if (found && strchr(found, '\n')) port = atoi(found + 5);
    }
    // The read end stays open (one descriptor per child, for the life of the benchmark): closing it
    // would kill the child with SIGPIPE at its next log line. Children log little (a few KiB at most).
    return port;
}

int kb_sp_resident_kib(int pid, long *rss, long *hwm) {
    char path[64];
    if (pid == 0) snprintf(path, sizeof path, "/proc/self/status");
    else snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    char line[256];
    *rss = *hwm = -1;
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, "VmRSS:", 6) == 0) *rss = atol(line + 6);
        if (strncmp(line, "VmHWM:", 6) == 0) *hwm = atol(line + 6);
    }
    fclose(file);
    return *rss >= 0 ? 0 : -1;
}

int kb_sp_resident_parts_kib(int pid, long *anon, long *file) {
    char path[64];
    if (pid == 0) snprintf(path, sizeof path, "/proc/self/status");
    else snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *status = fopen(path, "r");
    if (!status) return -1;
    char line[256];
    *anon = *file = -1;
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, "RssAnon:", 8) == 0) *anon = atol(line + 8);
        if (strncmp(line, "RssFile:", 8) == 0) *file = atol(line + 8);
    }
    fclose(status);
    return *anon >= 0 && *file >= 0 ? 0 : -1;
}

int kb_sp_end_child(int pid, int stdin_fd) {
    if (stdin_fd >= 0) close(stdin_fd);
    if (pid <= 0) return -1;
    int status = 0;
    for (int i = 0; i < 100; i++) {
        if (waitpid(pid, &status, WNOHANG) == pid) return status;
        struct timespec t = {.tv_sec = 0, .tv_nsec = 10000000};
        nanosleep(&t, NULL);
    }
    kill(pid, SIGTERM);
    waitpid(pid, &status, 0);
    return status;
}

// ---- the kernel's limit for the fan-out ----

int kb_sp_kernel_fanout(
    int subscribers, int per_datagram, long sets_per_datagram, long sets, double *sets_per_second, long *received) {
    *sets_per_second = 0;
    *received = 0;
    if (subscribers < 1 || subscribers > 1024 || per_datagram < 1 || per_datagram > 64 || sets_per_datagram < 1)
        return -1;
    int *fds = calloc((size_t)subscribers, sizeof *fds);
    struct sockaddr_in *to = calloc((size_t)subscribers, sizeof *to);
    struct mmsghdr *messages = calloc((size_t)subscribers, sizeof *messages);
    struct iovec iov;
    // The throughput runs' receiver, counting the echoes of /p/p0 … /p/p9.
    kb_sp_throughput_config config = {.subscribers = subscribers, .parameters = 10};
    receiver_state state = {
        .config = &config, .fds = fds, .epoll_fd = epoll_create1(0),
        .echoes = calloc((size_t)subscribers, sizeof(long)),
        .last = calloc((size_t)subscribers * 10, sizeof(float))};
    int sender = peer_socket(NULL);
    int status = -1;
    int opened = 0;
    pthread_t thread;
    int threaded = 0;
    if (!fds || !to || !messages || !state.echoes || !state.last || state.epoll_fd < 0 || sender < 0) goto done;
    for (; opened < subscribers; opened++) {
        uint16_t port;
        fds[opened] = peer_socket(&port);
        if (fds[opened] < 0) goto done;
        to[opened] = server_address(port);
        struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)opened};
        epoll_ctl(state.epoll_fd, EPOLL_CTL_ADD, fds[opened], &event);
    }
    // What a subscriber gets: the echo `/p/pN ,f v` of one set (16 bytes), or a bundle of the echoes
    // of `per_datagram` sets, as the server coalesces them when sets come faster than it sends.
    static uint8_t packet[64 * 24 + 16];
    size_t size = 0;
    if (per_datagram == 1) {
        size = encode_set(packet, "/p/p5", 0.5f, NULL);
    } else {
        memcpy(packet, "#bundle\0\0\0\0\0\0\0\0\1", 16);
        size = 16;
        for (int i = 0; i < per_datagram; i++) {
            char address[16];
            snprintf(address, sizeof address, "/p/p%d", i % 10);
            size_t length = encode_set(packet + size + 4, address, 0.5f, NULL);
            uint32_t big = htonl((uint32_t)length);
            memcpy(packet + size, &big, 4);
            size += 4 + length;
        }
    }
    iov = (struct iovec){packet, size};
    for (int i = 0; i < subscribers; i++)
        messages[i].msg_hdr = (struct msghdr){
            .msg_name = &to[i], .msg_namelen = sizeof to[i], .msg_iov = &iov, .msg_iovlen = 1};
    if (pthread_create(&thread, NULL, receiver_loop, &state) != 0) goto done;
    threaded = 1;
    uint64_t start = now_ns();
    for (long set = 0; set < sets; set += sets_per_datagram) {
        // One call per datagram's worth of sets, a datagram to each subscriber: what a server that
        // batched perfectly would ask of the kernel.
        for (int sent = 0; sent < subscribers;) {
            int n = sendmmsg(sender, messages + sent, (unsigned)(subscribers - sent), 0);
            if (n <= 0) {
                if (n < 0 && errno != EINTR && errno != EAGAIN) goto done;
                continue;
            }
            sent += n;
        }
    }
    uint64_t elapsed = now_ns() - start;
    *sets_per_second = (double)sets * 1e9 / (double)elapsed;
    status = 0;
done:
    if (threaded) {
        // Let the drain catch up with what is queued, then stop it.
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 200000000};
        nanosleep(&pause, NULL);
        atomic_store_explicit(&state.stop, 1, memory_order_relaxed);
        pthread_join(thread, NULL);
        *received = state.datagrams;
    }
    for (int i = 0; i < opened; i++) close(fds[i]);
    if (sender >= 0) close(sender);
    if (state.epoll_fd >= 0) close(state.epoll_fd);
    free(fds);
    free(to);
    free(messages);
    free(state.echoes);
    free(state.last);
    return status;
}
