#define _GNU_SOURCE
#include "kb_file_window.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

// The windows being read, at most one per thread that decodes at a time. A slot is claimed with
// `owner`; `start` is stored before `end` and `end` cleared before `start`, so the range is empty
// whenever the two disagree. The handler only uses the slots of the thread that faulted, whose own
// stores it always sees.
#define KB_SLOTS 64

static struct {
    _Atomic long owner;  // the thread's id, 0 for a free slot
    _Atomic uintptr_t start;
    _Atomic uintptr_t end;
    _Atomic uintptr_t lost;
} slots[KB_SLOTS];

static struct sigaction previous;
static _Atomic uint64_t windows_mapped;
static uintptr_t page_size;
static pthread_once_t installed = PTHREAD_ONCE_INIT;
static int install_error;

static long thread_id(void) { return (long)syscall(SYS_gettid); }

static void on_bus_error(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    long self = thread_id();
    for (int index = 0; index < KB_SLOTS; index++) {
        if (atomic_load(&slots[index].owner) != self) continue;
        uintptr_t start = atomic_load(&slots[index].start);
        uintptr_t end = atomic_load(&slots[index].end);
        if (address < start || address >= end) continue;
        uintptr_t page = address & ~(page_size - 1);
        // Zeros from the lost page to the window's end; the read that faulted is made again and
        // finds them.
        if (mmap((void *)page, end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
            break;
        uintptr_t none = 0;
        atomic_compare_exchange_strong(&slots[index].lost, &none, page);
        return;
    }
    // Not a window's: what would have happened without the guard.
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signal);
    } else {
        // Back to the default; returning makes the same access fault again, and the process ends
        // with SIGBUS as it would have.
        struct sigaction fallback = {0};
        fallback.sa_handler = SIG_DFL;
        sigemptyset(&fallback.sa_mask);
        sigaction(SIGBUS, &fallback, NULL);
    }
}

static void install(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action = {0};
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous) != 0) install_error = errno;
}

int kb_file_window_map(int descriptor, off_t offset, size_t length, kb_file_window *window) {
    window->bytes = NULL;
    window->base = NULL;
    window->mapped_length = 0;
    window->slot = -1;
    pthread_once(&installed, install);
    if (install_error != 0) return install_error;
    if (length == 0 || offset < 0) return EINVAL;
    long self = thread_id();
    int slot = -1;
    for (int index = 0; index < KB_SLOTS && slot < 0; index++) {
        long free_slot = 0;
        if (atomic_compare_exchange_strong(&slots[index].owner, &free_slot, self)) slot = index;
    }
    if (slot < 0) return ENOSPC;
    off_t page_offset = offset & ~(off_t)(page_size - 1);
    size_t mapped_length = length + (size_t)(offset - page_offset);
    // Populated: one call sets up the window's pages, rather than a fault every 16 of them.
    void *base = mmap(NULL, mapped_length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, page_offset);
    if (base == MAP_FAILED) {
        int code = errno;
        atomic_store(&slots[slot].owner, 0);
        return code;
    }
    atomic_fetch_add(&windows_mapped, 1);
    atomic_store(&slots[slot].lost, 0);
    atomic_store(&slots[slot].start, (uintptr_t)base);
    atomic_store(&slots[slot].end, (uintptr_t)base + mapped_length);
    window->base = base;
    window->mapped_length = mapped_length;
    window->bytes = (const char *)base + (offset - page_offset);
    window->slot = slot;
    return 0;
}

uintptr_t kb_file_window_unmap(kb_file_window *window) {
    if (window->base == NULL) return 0;
    uintptr_t lost = 0;
    if (window->slot >= 0) {
        atomic_store(&slots[window->slot].end, 0);
        atomic_store(&slots[window->slot].start, 0);
        lost = atomic_load(&slots[window->slot].lost);
        atomic_store(&slots[window->slot].owner, 0);
    }
    munmap(window->base, window->mapped_length);
    window->base = NULL;
    window->bytes = NULL;
    window->slot = -1;
    return lost;
}

uint64_t kb_file_window_count(void) { return atomic_load(&windows_mapped); }
