// The liblo reference server (see CLibLOServer.h). Written as a liblo user would write it: one method
// per address, values in an array, subscribers as lo_address, echoes with lo_send_message_from so that
// they leave from the listening port.
#include "CLibLOServer.h"

#include <lo/lo.h>
#include <lo/lo_lowlevel.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { MAX_SUBSCRIBERS = 256, RCVBUF = 4 << 20 };

typedef struct {
    lo_address address;
    char url[160];
    char host[64];
    char port[16];
} subscriber;

typedef struct {
    kb_ref_server *server;
    int index;
    char path[16];
} parameter_method;

struct kb_ref_server {
    lo_server lo;
    int parameters;
    float *values;
    parameter_method *methods;
    subscriber subscribers[MAX_SUBSCRIBERS];
    int subscriber_count;
    atomic_long applied;
    atomic_long echoes;
    atomic_long send_failures;
    atomic_int stop;
    pthread_t thread;
};

static void ref_error(int num, const char *msg, const char *where) {
    fprintf(stderr, "liblo reference server: error %d: %s (%s)\n", num, msg ? msg : "", where ? where : "");
}

static int set_handler(const char *path, const char *types, lo_arg **argv, int argc, lo_message m, void *user_data) {
    (void)types; (void)argc;
    parameter_method *method = user_data;
    kb_ref_server *server = method->server;
    float value = argv[0]->f;
    server->values[method->index] = value;
    atomic_fetch_add_explicit(&server->applied, 1, memory_order_relaxed);
    if (server->subscriber_count == 0) return 0;
    lo_address source = lo_message_get_source(m);
    const char *source_host = source ? lo_address_get_hostname(source) : NULL;
    const char *source_port = source ? lo_address_get_port(source) : NULL;
    lo_message echo = lo_message_new();
    lo_message_add_float(echo, value);
    long sent = 0, failed = 0;
    for (int i = 0; i < server->subscriber_count; i++) {
        subscriber *sub = &server->subscribers[i];
        // No echo to the peer that sent the value (rule E2 of the protocol).
        if (source_port && strcmp(sub->port, source_port) == 0 && source_host && strcmp(sub->host, source_host) == 0)
            continue;
        if (lo_send_message_from(sub->address, server->lo, path, echo) < 0) failed++;
        else sent++;
    }
    lo_message_free(echo);
    atomic_fetch_add_explicit(&server->echoes, sent, memory_order_relaxed);
    if (failed) atomic_fetch_add_explicit(&server->send_failures, failed, memory_order_relaxed);
    return 0;
}

static int subscribe_handler(const char *path, const char *types, lo_arg **argv, int argc, lo_message m,
                             void *user_data) {
    (void)path; (void)m;
    kb_ref_server *server = user_data;
    if (argc < 1 || types[0] != 's') return 0;
    const char *url = &argv[0]->s;
    subscriber *sub = NULL;
    for (int i = 0; i < server->subscriber_count; i++)
        if (strcmp(server->subscribers[i].url, url) == 0) sub = &server->subscribers[i];
    if (!sub) {
        if (server->subscriber_count == MAX_SUBSCRIBERS || strlen(url) >= sizeof sub->url) return 0;
        lo_address address = lo_address_new_from_url(url);
        if (!address) return 0;
        sub = &server->subscribers[server->subscriber_count++];
        sub->address = address;
        snprintf(sub->url, sizeof sub->url, "%s", url);
        // The host as liblo reports a message's source (numeric), to recognise the sender.
        snprintf(sub->host, sizeof sub->host, "%s", lo_address_get_hostname(address));
        snprintf(sub->port, sizeof sub->port, "%s", lo_address_get_port(address));
    }
    // Confirms the subscription the way KnobLink ends its first values: `/sys/update i 0`.
    lo_send_from(sub->address, server->lo, LO_TT_IMMEDIATE, "/sys/update", "i", 0);
    return 0;
}

static kb_ref_server *ref_create(int parameters, uint16_t port) {
    kb_ref_server *server = calloc(1, sizeof *server);
    if (!server) return NULL;
    char port_text[16];
    snprintf(port_text, sizeof port_text, "%u", (unsigned)port);
    server->lo = lo_server_new_with_proto(port ? port_text : NULL, LO_UDP, ref_error);
    if (!server->lo) {
        free(server);
        return NULL;
    }
    // The same receive buffer as KnobLink's server asks for: liblo's 208 KiB default loses bursts.
    int size = RCVBUF;
    setsockopt(lo_server_get_socket_fd(server->lo), SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    server->parameters = parameters;
    server->values = calloc((size_t)parameters, sizeof *server->values);
    server->methods = calloc((size_t)parameters, sizeof *server->methods);
    for (int i = 0; i < parameters; i++) {
        parameter_method *method = &server->methods[i];
        method->server = server;
        method->index = i;
        snprintf(method->path, sizeof method->path, "/p/p%d", i);
        lo_server_add_method(server->lo, method->path, "f", set_handler, method);
    }
    lo_server_add_method(server->lo, "/sys/subscribe", NULL, subscribe_handler, server);
    return server;
}

static void ref_free(kb_ref_server *server) {
    for (int i = 0; i < server->subscriber_count; i++) lo_address_free(server->subscribers[i].address);
    lo_server_free(server->lo);
    free(server->values);
    free(server->methods);
    free(server);
}

static void *ref_loop(void *arg) {
    kb_ref_server *server = arg;
    while (!atomic_load_explicit(&server->stop, memory_order_relaxed)) lo_server_recv_noblock(server->lo, 20);
    return NULL;
}

kb_ref_server *kb_ref_start(int parameters, uint16_t port) {
    kb_ref_server *server = ref_create(parameters, port);
    if (!server) return NULL;
    if (pthread_create(&server->thread, NULL, ref_loop, server) != 0) {
        ref_free(server);
        return NULL;
    }
    return server;
}

uint16_t kb_ref_port(kb_ref_server *server) { return (uint16_t)lo_server_get_port(server->lo); }
long kb_ref_applied(kb_ref_server *server) { return atomic_load(&server->applied); }
long kb_ref_echoes(kb_ref_server *server) { return atomic_load(&server->echoes); }
long kb_ref_send_failures(kb_ref_server *server) { return atomic_load(&server->send_failures); }
float kb_ref_value(kb_ref_server *server, int index) { return server->values[index]; }
int kb_ref_subscribers(kb_ref_server *server) { return server->subscriber_count; }

void kb_ref_stop(kb_ref_server *server) {
    atomic_store(&server->stop, 1);
    pthread_join(server->thread, NULL);
    ref_free(server);
}

int kb_ref_serve_until_stdin_closes(int parameters) {
    kb_ref_server *server = ref_create(parameters, 0);
    if (!server) return 1;
    printf("port %d\n", lo_server_get_port(server->lo));
    fflush(stdout);
    struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = lo_server_get_socket_fd(server->lo), .events = POLLIN}};
    for (;;) {
        if (poll(fds, 2, -1) < 0) continue;
        if (fds[0].revents) {
            char byte;
            if (read(0, &byte, 1) <= 0) break;
        }
        if (fds[1].revents & POLLIN) lo_server_recv_noblock(server->lo, 0);
    }
    ref_free(server);
    return 0;
}
