// Linking this target into a fuzzer makes every libmpg123 handle quiet (see quiet.c); there is
// nothing to call.
#ifndef C_QUIET_MPG123_H
#define C_QUIET_MPG123_H
#endif
