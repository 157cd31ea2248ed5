// liblo's side of the codec and dispatch scenarios.
#include "CBenchPeer.h"

#include <lo/lo.h>
#include <lo/lo_lowlevel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t kb_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t kb_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint8_t blob_bytes[64];
static lo_blob the_blob;

static void init_blob(void) {
    if (the_blob) return;
    for (int i = 0; i < 64; i++) blob_bytes[i] = (uint8_t)i;
    the_blob = lo_blob_new(64, blob_bytes);
}

// Building the message from the values is part of encoding: an application holds values, not a lo_message.
static lo_message make_mixed(void) {
    lo_message m = lo_message_new();
    lo_message_add_int32(m, 60);
    lo_message_add_float(m, 0.8f);
    lo_message_add_string(m, "piano");
    lo_message_add_blob(m, the_blob);
    lo_message_add_true(m);
    lo_message_add_int64(m, 1234567890123ll);
    lo_message_add_double(m, 3.14159);
    return m;
}

static const lo_timetag immediately = {0, 1};

static size_t encode_once(int scenario, uint8_t *out, size_t capacity) {
    size_t size = capacity;
    switch (scenario) {
    case KB_GAIN: {
        lo_message m = lo_message_new();
        lo_message_add_float(m, 0.5f);
        lo_message_serialise(m, "/knob/gain", out, &size);
        lo_message_free(m);
        return size;
    }
    case KB_MIXED: {
        lo_message m = make_mixed();
        lo_message_serialise(m, "/synth/1/note", out, &size);
        lo_message_free(m);
        return size;
    }
    default: {
        lo_bundle b = lo_bundle_new(immediately);
        for (int i = 0; i < 16; i++) lo_bundle_add_message(b, "/synth/1/note", make_mixed());
        lo_bundle_serialise(b, out, &size);
        lo_bundle_free_recursive(b);
        return size;
    }
    }
}

size_t kb_lo_packet(int scenario, uint8_t *out, size_t capacity) {
    init_blob();
    if (capacity < 4096) return 0;
    return encode_once(scenario, out, capacity);
}

uint64_t kb_lo_encode(int scenario, long iterations, uint64_t *sink) {
    init_blob();
    uint8_t buffer[4096];
    uint64_t acc = 0;
    uint64_t start = kb_cpu_ns();
    for (long i = 0; i < iterations; i++) {
        acc += encode_once(scenario, buffer, sizeof buffer);
        acc += buffer[acc & 15];
    }
    uint64_t elapsed = kb_cpu_ns() - start;
    *sink += acc;
    return elapsed;
}

// Reading every argument is part of decoding, on both sides.
static uint64_t read_message(lo_message m) {
    int argc = lo_message_get_argc(m);
    const char *types = lo_message_get_types(m);
    lo_arg **argv = lo_message_get_argv(m);
    uint64_t acc = 0;
    for (int i = 0; i < argc; i++) {
        switch (types[i]) {
        case 'i': acc += (uint64_t)argv[i]->i; break;
        case 'f': acc += (uint64_t)(argv[i]->f * 1000.0f); break;
        case 's': acc += (uint64_t)strlen(&argv[i]->s); break;
        case 'b': acc += lo_blob_datasize((lo_blob)argv[i]) + ((uint8_t *)lo_blob_dataptr((lo_blob)argv[i]))[63]; break;
        case 'T': acc += 1; break;
        case 'h': acc += (uint64_t)argv[i]->h; break;
        case 'd': acc += (uint64_t)(argv[i]->d * 1000.0); break;
        default: break;
        }
    }
    return acc;
}

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

// liblo 0.31 has no public bundle decoder: lo_server walks the elements and deserialises each
// message, and so does this (with the same checks on sizes).
static uint64_t decode_bundle(uint8_t *data, size_t size) {
    if (size < 16 || memcmp(data, "#bundle", 8) != 0) return 0;
    uint64_t acc = be32(data + 12);
    size_t pos = 16;
    while (pos + 4 <= size) {
        uint32_t len = be32(data + pos);
        pos += 4;
        if (len > size - pos) return 0;
        int result = 0;
        lo_message m = lo_message_deserialise(data + pos, len, &result);
        if (!m) return 0;
        acc += read_message(m);
        lo_message_free(m);
        pos += len;
    }
    return acc;
}

uint64_t kb_lo_decode(int scenario, long iterations, uint64_t *sink) {
    init_blob();
    uint8_t packet[4096];
    size_t size = encode_once(scenario, packet, sizeof packet);
    uint64_t acc = 0;
    uint64_t start = kb_cpu_ns();
    for (long i = 0; i < iterations; i++) {
        if (scenario == KB_BUNDLE) {
            acc += decode_bundle(packet, size);
        } else {
            int result = 0;
            lo_message m = lo_message_deserialise(packet, size, &result);
            if (!m) {
                fprintf(stderr, "liblo: deserialise failed (%d)\n", result);
                abort();
            }
            acc += read_message(m);
            lo_message_free(m);
        }
    }
    uint64_t elapsed = kb_cpu_ns() - start;
    *sink += acc;
    return elapsed;
}

typedef struct {
    lo_server server;
    long calls;
    uint64_t acc;
} dispatch_ctx;

static int count_handler(const char *path, const char *types, lo_arg **argv, int argc, lo_message m,
                         void *user_data) {
    (void)path; (void)types; (void)argc; (void)m;
    dispatch_ctx *ctx = user_data;
    ctx->calls++;
    ctx->acc += (uint64_t)(argv[0]->f * 1000.0f);
    return 0;
}

static void quiet_error(int num, const char *msg, const char *where) {
    fprintf(stderr, "liblo error %d: %s (%s)\n", num, msg ? msg : "", where ? where : "");
}

void *kb_lo_dispatch_new(void) {
    dispatch_ctx *ctx = calloc(1, sizeof *ctx);
    // UDP on an ephemeral port: the socket is never read, lo_server_dispatch_data is fed directly.
    ctx->server = lo_server_new_with_proto(NULL, LO_UDP, quiet_error);
    if (!ctx->server) abort();
    char path[32];
    for (int i = 0; i < 100; i++) {
        snprintf(path, sizeof path, "/knob/p%d", i);
        lo_server_add_method(ctx->server, path, "f", count_handler, ctx);
    }
    return ctx;
}

uint64_t kb_lo_dispatch(void *server, const uint8_t *data, size_t size, long iterations, long *calls) {
    dispatch_ctx *ctx = server;
    long before = ctx->calls;
    uint64_t start = kb_cpu_ns();
    for (long i = 0; i < iterations; i++) {
        // liblo deserialises into a copy of its own and leaves `data` as it was, so it can be reused.
        lo_server_dispatch_data(ctx->server, (void *)data, size);
    }
    uint64_t elapsed = kb_cpu_ns() - start;
    *calls = ctx->calls - before;
    return elapsed;
}

void kb_lo_dispatch_free(void *server) {
    dispatch_ctx *ctx = server;
    lo_server_free(ctx->server);
    free(ctx);
}

uint64_t kb_lo_decode_bytes(const uint8_t *data, size_t size, long iterations, uint64_t *sink) {
    uint64_t acc = 0;
    uint64_t start = kb_cpu_ns();
    for (long i = 0; i < iterations; i++) {
        int result = 0;
        lo_message m = lo_message_deserialise((void *)data, size, &result);
        if (!m) abort();
        acc += read_message(m);
        lo_message_free(m);
    }
    uint64_t elapsed = kb_cpu_ns() - start;
    *sink += acc;
    return elapsed;
}
