// libsndfile's C API: the audio decoder behind the Waveform module (WAV, AIFF, CAF, FLAC, Ogg, Opus, MP3).
//
// The library is not linked: `kb_sndfile_load` opens it with dlopen when a file is first decoded.
// Linked, it and its codecs (libFLAC, libvorbis, libvorbisenc, libopus, libogg, libmpg123,
// libmp3lame: eight libraries) were loaded and relocated at the start of every `knoblink` command,
// and kept about 0.9 MiB of pages resident in a server that never decodes audio. The header still
// gives every type and constant, and the table below takes each function's type from its
// declaration, so that the compiler checks it.
#include <dlfcn.h>
#include <sndfile.h>
#include <stddef.h>

// The functions of libsndfile that the Waveform module calls, each named without its `sf_`
// prefix; listed once, for the table and for its lookup.
#define KB_SNDFILE_FUNCTIONS(X)                                                                        \
    X(open) X(open_fd) X(open_virtual) X(close) X(error) X(strerror) X(error_number) X(command)     \
    X(readf_short) X(readf_float) X(seek)

// Each function's pointer, typed from its declaration.
typedef struct {
#define KB_SNDFILE_FIELD(name) __typeof__(&sf_##name) _Nonnull name;
    KB_SNDFILE_FUNCTIONS(KB_SNDFILE_FIELD)
#undef KB_SNDFILE_FIELD
} KBSndFileAPI;

// Opens `file` and fills `api`. Returns NULL, or dlerror's text when the library or one of its
// functions cannot be found; then `api` is not to be used. The library stays loaded for the life
// of the process.
static inline const char *_Nullable kb_sndfile_load(const char *_Nonnull file, KBSndFileAPI *_Nonnull api) {
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return dlerror();
#define KB_SNDFILE_FIND(name)                                                        \
    if ((api->name = (__typeof__(api->name))dlsym(handle, "sf_" #name)) == NULL) \
        return dlerror();
    KB_SNDFILE_FUNCTIONS(KB_SNDFILE_FIND)
#undef KB_SNDFILE_FIND
    return NULL;
}
