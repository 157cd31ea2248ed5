// Read-only windows of a file that a shrinking file cannot crash.
//
// A page of a mapping past the end of its file raises SIGBUS when it is read, which would end the
// process if another process truncated the file while it is read. While a window is mapped, a
// SIGBUS on one of its pages on the thread that mapped it maps zero pages over the rest of the
// window instead, and the window remembers the first address that was lost. Any other SIGBUS goes
// to the handler that was installed before (the Swift runtime's backtracer, or the default).
#ifndef KB_FILE_WINDOW_H
#define KB_FILE_WINDOW_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct {
    /// The first byte of the file's range asked for.
    const void *_Nullable bytes;
    /// The mapping itself, from the page that holds `bytes`.
    void *_Nullable base;
    size_t mapped_length;
    /// The slot of the SIGBUS guard that watches the window, or -1 when it could not be watched.
    int slot;
} kb_file_window;

/// Maps `length` bytes of `descriptor` from `offset`, read-only, watched by the SIGBUS guard.
/// Returns 0, or an errno value (ENOSPC when every slot of the guard is in use: the caller reads
/// the file instead).
int kb_file_window_map(int descriptor, off_t offset, size_t length, kb_file_window *_Nonnull window);

/// Unmaps the window. Returns the first address of the window that a SIGBUS found gone (read as
/// zeros since), or 0 when none was.
uintptr_t kb_file_window_unmap(kb_file_window *_Nonnull window);

/// The number of windows mapped so far in the process.
uint64_t kb_file_window_count(void);

#endif
