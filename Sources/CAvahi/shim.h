// libavahi-client's C API: the Zeroconf module publishes KnobLink's services through the Avahi
// daemon over D-Bus, with the client's event loop on a thread of its own (threaded poll).
#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#include <avahi-common/watch.h>
