// The C side of the waveform benchmarks: audiowaveform's algorithm as a plain loop over libsndfile,
// the decoder alone, and the generator of the benchmark's input files.
#ifndef WAVEFORM_REFERENCE_H
#define WAVEFORM_REFERENCE_H

#include <stddef.h>

// audiowaveform's min/max at `zoom`, channels mixed: sf_readf_short into a buffer, then frame by
// frame the channels summed as int and divided by the channel count, min and max per bucket, the
// last partial bucket kept. Writes up to `capacity` (min, max) pairs to `pairs` (may be NULL) and
// returns the number of pairs, or -1 if the file cannot be opened.
long kb_wf_reference_minmax(const char *path, int zoom, short *pairs, long capacity);

// audiowaveform's whole job for `--output FILE.dat` at `zoom`, 16 bits, channels mixed: the loop
// above with each pair written to `output` as it is made (stdio, fully buffered), after the 20-byte
// version-1 header whose pair count is patched at the end. Returns 0, or 1 with a message on
// standard error.
int kb_wf_reference_dat(const char *path, int zoom, const char *output);

// The decoder alone: the same sf_readf_short loop doing nothing with the samples. Returns the
// number of frames, or -1.
long kb_wf_decode_only(const char *path);

// Writes `seconds` of a stereo 44.1 kHz test signal (two detuned tones under a slow envelope, with
// a little noise) in libsndfile format `format` (e.g. SF_FORMAT_WAV | SF_FORMAT_PCM_16). Returns 0,
// or -1 with libsndfile's message in `error` (at least 256 bytes).
int kb_wf_generate(const char *path, int format, int seconds, char *error);

// libsndfile format codes, so that the Swift side needs no sndfile.h.
int kb_wf_format_wav16(void);
int kb_wf_format_flac16(void);
int kb_wf_format_mp3(void);

#endif
