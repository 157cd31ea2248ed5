// Silences libmpg123 in the audio decoder's fuzzer.
//
// libsndfile creates its MP3 decoder with mpg123_new and never sets MPG123_QUIET, so every
// damaged frame the fuzzer makes up prints a line or more to standard error: 1.6 GB of log in six
// minutes. libsndfile offers no way to reach the handle, so the fuzzer defines mpg123_new itself:
// the executable's definition comes first in the dynamic linker's search, it calls libmpg123's
// own (found with RTLD_NEXT) and adds MPG123_QUIET to the new handle. Everything else the fuzzer
// and the Swift runtime print (crashes, invariant failures, libFuzzer's status) still shows.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpg123.h>

typedef mpg123_handle *(*NewHandle)(const char *, int *);
typedef int (*SetParameter)(mpg123_handle *, int, long, double);

static mpg123_handle *quieted(mpg123_handle *handle) {
    static SetParameter setParameter;
    // mpg123_param2 is what libsndfile calls (mpg123_param may be renamed for large files).
    if (!setParameter) setParameter = (SetParameter)dlsym(RTLD_NEXT, "mpg123_param2");
    if (handle && setParameter) setParameter(handle, MPG123_ADD_FLAGS, MPG123_QUIET, 0);
    return handle;
}

mpg123_handle *mpg123_new(const char *decoder, int *error) {
    static NewHandle real;
    if (!real) real = (NewHandle)dlsym(RTLD_NEXT, "mpg123_new");
    if (!real) {
        if (error) *error = MPG123_ERR;
        return NULL;
    }
    return quieted(real(decoder, error));
}
