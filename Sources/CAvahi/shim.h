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

// The functions of libavahi-client and libavahi-common that the Zeroconf module calls.
typedef struct {
    __typeof__(&avahi_client_new) _Nonnull client_new;
    __typeof__(&avahi_client_free) _Nonnull client_free;
    __typeof__(&avahi_client_errno) _Nonnull client_errno;
    __typeof__(&avahi_entry_group_new) _Nonnull entry_group_new;
    __typeof__(&avahi_entry_group_free) _Nonnull entry_group_free;
    __typeof__(&avahi_entry_group_commit) _Nonnull entry_group_commit;
    __typeof__(&avahi_entry_group_reset) _Nonnull entry_group_reset;
    __typeof__(&avahi_entry_group_get_client) _Nonnull entry_group_get_client;
    __typeof__(&avahi_entry_group_add_service_strlst) _Nonnull entry_group_add_service_strlst;
    __typeof__(&avahi_threaded_poll_new) _Nonnull threaded_poll_new;
    __typeof__(&avahi_threaded_poll_free) _Nonnull threaded_poll_free;
    __typeof__(&avahi_threaded_poll_get) _Nonnull threaded_poll_get;
    __typeof__(&avahi_threaded_poll_start) _Nonnull threaded_poll_start;
    __typeof__(&avahi_threaded_poll_stop) _Nonnull threaded_poll_stop;
    __typeof__(&avahi_strerror) _Nonnull strerror;
    __typeof__(&avahi_free) _Nonnull free;
    __typeof__(&avahi_string_list_add) _Nonnull string_list_add;
    __typeof__(&avahi_string_list_free) _Nonnull string_list_free;
    __typeof__(&avahi_alternative_service_name) _Nonnull alternative_service_name;
} KBAvahiAPI;

// Opens `file` (libavahi-client, which brings libavahi-common) and fills `api`. Returns NULL, or
// dlerror's text when the library or one of its functions cannot be found; then `api` is not to
// be used. The library stays loaded for the life of the process.
static inline const char *_Nullable kb_avahi_load(const char *_Nonnull file, KBAvahiAPI *_Nonnull api) {
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return dlerror();
#define KB_AVAHI_FIND(field, symbol)                                          \
    if ((api->field = (__typeof__(api->field))dlsym(handle, #symbol)) == NULL) \
        return dlerror();
    KB_AVAHI_FIND(client_new, avahi_client_new)
    KB_AVAHI_FIND(client_free, avahi_client_free)
    KB_AVAHI_FIND(client_errno, avahi_client_errno)
    KB_AVAHI_FIND(entry_group_new, avahi_entry_group_new)
    KB_AVAHI_FIND(entry_group_free, avahi_entry_group_free)
    KB_AVAHI_FIND(entry_group_commit, avahi_entry_group_commit)
    KB_AVAHI_FIND(entry_group_reset, avahi_entry_group_reset)
    KB_AVAHI_FIND(entry_group_get_client, avahi_entry_group_get_client)
    KB_AVAHI_FIND(entry_group_add_service_strlst, avahi_entry_group_add_service_strlst)
    KB_AVAHI_FIND(threaded_poll_new, avahi_threaded_poll_new)
    KB_AVAHI_FIND(threaded_poll_free, avahi_threaded_poll_free)
    KB_AVAHI_FIND(threaded_poll_get, avahi_threaded_poll_get)
    KB_AVAHI_FIND(threaded_poll_start, avahi_threaded_poll_start)
    KB_AVAHI_FIND(threaded_poll_stop, avahi_threaded_poll_stop)
    KB_AVAHI_FIND(strerror, avahi_strerror)
    KB_AVAHI_FIND(free, avahi_free)
    KB_AVAHI_FIND(string_list_add, avahi_string_list_add)
    KB_AVAHI_FIND(string_list_free, avahi_string_list_free)
    KB_AVAHI_FIND(alternative_service_name, avahi_alternative_service_name)
#undef KB_AVAHI_FIND
    return NULL;
}
