// libavahi-client's C API: the Zeroconf module publishes KnobLink's services through the Avahi
// daemon over D-Bus, with the client's event loop on a thread of its own (threaded poll).
//
// The library is not linked: `kb_avahi_load` opens it with dlopen when a server first advertises.
// Linked, it and what it needs (libdbus, libsystemd, libgcrypt, liblzma, libzstd, liblz4, libcap,
// libgpg-error: ten libraries) were loaded and relocated at the start of every `knoblink` command,
// about a millisecond and 80 page faults, and `knoblink` did not start at all where Avahi is not
// installed. The headers still give every type and constant, and the table below takes each
// function's type from its declaration, so that the compiler checks it.
#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#include <avahi-common/watch.h>
#include <dlfcn.h>
#include <stddef.h>

// The functions of libavahi-client and libavahi-common that the Zeroconf module calls, each
// named without its `avahi_` prefix; listed once, for the table and for its lookup.
#define KB_AVAHI_FUNCTIONS(X)                                                                          \
    X(client_new) X(client_free) X(client_errno) X(entry_group_new) X(entry_group_free)             \
    X(entry_group_commit) X(entry_group_reset) X(entry_group_get_client)                           \
    X(entry_group_add_service_strlst) X(threaded_poll_new) X(threaded_poll_free)                   \
    X(threaded_poll_get) X(threaded_poll_start) X(threaded_poll_stop) X(strerror) X(free)          \
    X(string_list_add) X(string_list_free) X(alternative_service_name)

// Each function's pointer, typed from its declaration.
typedef struct {
#define KB_AVAHI_FIELD(name) __typeof__(&avahi_##name) _Nonnull name;
    KB_AVAHI_FUNCTIONS(KB_AVAHI_FIELD)
#undef KB_AVAHI_FIELD
} KBAvahiAPI;

// Opens `file` (libavahi-client, which brings libavahi-common) and fills `api`. Returns NULL, or
// dlerror's text when the library or one of its functions cannot be found; then `api` is not to
// be used. The library stays loaded for the life of the process.
static inline const char *_Nullable kb_avahi_load(const char *_Nonnull file, KBAvahiAPI *_Nonnull api) {
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return dlerror();
#define KB_AVAHI_FIND(name)                                                            \
    if ((api->name = (__typeof__(api->name))dlsym(handle, "avahi_" #name)) == NULL) \
        return dlerror();
    KB_AVAHI_FUNCTIONS(KB_AVAHI_FIND)
#undef KB_AVAHI_FIND
    return NULL;
}
