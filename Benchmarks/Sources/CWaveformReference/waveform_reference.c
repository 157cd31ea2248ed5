#include "waveform_reference.h"

#include <limits.h>
#include <math.h>
#include <sndfile.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// audiowaveform reads 16384 frames at a time.
#define CHUNK_FRAMES 16384

// audiowaveform's loop over an open file: `emit(context, min, max)` for each bucket, the last
// partial one included. Returns the number of pairs. Static and called with constant callbacks,
// so that the compiler inlines each.
static inline long minmax_loop(SNDFILE *file, int channels, int zoom, void (*emit)(void *, short, short),
                               void *context) {
    short *buffer = malloc(sizeof(short) * CHUNK_FRAMES * channels);
    long count = 0;
    int fill = 0;
    int low = SHRT_MAX, high = SHRT_MIN;
    sf_count_t read;
    while ((read = sf_readf_short(file, buffer, CHUNK_FRAMES)) > 0) {
        for (sf_count_t frame = 0; frame < read; frame++) {
            int sum = 0;
            for (int channel = 0; channel < channels; channel++) sum += buffer[frame * channels + channel];
            const int sample = sum / channels;
            if (sample < low) low = sample;
            if (sample > high) high = sample;
            if (++fill == zoom) {
                emit(context, (short)low, (short)high);
                count++;
                fill = 0;
                low = SHRT_MAX;
                high = SHRT_MIN;
            }
        }
    }
    if (fill > 0) {
        emit(context, (short)low, (short)high);
        count++;
    }
    free(buffer);
    return count;
}

struct pair_array {
    short *pairs;
    long capacity;
    long count;
};

static void store_pair(void *context, short low, short high) {
    struct pair_array *array = context;
    if (array->pairs != NULL && array->count < array->capacity) {
        array->pairs[2 * array->count] = low;
        array->pairs[2 * array->count + 1] = high;
    }
    array->count++;
}

static void write_pair(void *context, short low, short high) {
    const short pair[2] = {low, high};
    fwrite(pair, sizeof pair, 1, (FILE *)context);
}

long kb_wf_reference_minmax(const char *path, int zoom, short *pairs, long capacity) {
    SF_INFO info;
    memset(&info, 0, sizeof info);
    SNDFILE *file = sf_open(path, SFM_READ, &info);
    if (file == NULL) return -1;
    struct pair_array array = {pairs, capacity, 0};
    const long count = minmax_loop(file, info.channels, zoom, store_pair, &array);
    sf_close(file);
    return count;
}

int kb_wf_reference_dat(const char *path, int zoom, const char *output) {
    SF_INFO info;
    memset(&info, 0, sizeof info);
    SNDFILE *file = sf_open(path, SFM_READ, &info);
    if (file == NULL) {
        fprintf(stderr, "%s: %s\n", path, sf_strerror(NULL));
        return 1;
    }
    FILE *out = fopen(output, "wb");
    if (out == NULL) {
        perror(output);
        sf_close(file);
        return 1;
    }
    // Version 1, flags 0 (16 bits), sample rate, frames per pair, pair count (patched below).
    int32_t header[5] = {1, 0, info.samplerate, zoom, 0};
    fwrite(header, sizeof header, 1, out);
    header[4] = (int32_t)minmax_loop(file, info.channels, zoom, write_pair, out);
    const int failed = fseek(out, 0, SEEK_SET) != 0 || fwrite(header, sizeof header, 1, out) != 1;
    sf_close(file);
    if (fclose(out) != 0 || failed) {
        perror(output);
        return 1;
    }
    return 0;
}

long kb_wf_decode_only(const char *path) {
    SF_INFO info;
    memset(&info, 0, sizeof info);
    SNDFILE *file = sf_open(path, SFM_READ, &info);
    if (file == NULL) return -1;
    short *buffer = malloc(sizeof(short) * CHUNK_FRAMES * info.channels);
    long frames = 0;
    sf_count_t read;
    while ((read = sf_readf_short(file, buffer, CHUNK_FRAMES)) > 0) frames += read;
    free(buffer);
    sf_close(file);
    return frames;
}

int kb_wf_generate(const char *path, int format, int seconds, char *error) {
    SF_INFO info;
    memset(&info, 0, sizeof info);
    info.samplerate = 44100;
    info.channels = 2;
    info.format = format;
    SNDFILE *file = sf_open(path, SFM_WRITE, &info);
    if (file == NULL) {
        snprintf(error, 256, "%s", sf_strerror(NULL));
        return -1;
    }
    if ((format & SF_FORMAT_TYPEMASK) == SF_FORMAT_MPEG) {
        double quality = 0.5;
        sf_command(file, SFC_SET_COMPRESSION_LEVEL, &quality, sizeof quality);
    }
    enum { FRAMES = 4410 };
    // Floats: libsndfile 1.2.0's MP3 encoder writes 16-bit input at four times its level.
    float buffer[FRAMES * 2];
    unsigned noise = 12345;
    const long total = (long)seconds * 44100;
    for (long start = 0; start < total; start += FRAMES) {
        long frames = total - start < FRAMES ? total - start : FRAMES;
        for (long i = 0; i < frames; i++) {
            const double t = (double)(start + i) / 44100.0;
            const double envelope = 0.35 + 0.3 * sin(2 * M_PI * 0.13 * t);
            noise = noise * 1664525u + 1013904223u;
            const double hiss = ((double)(noise >> 8) / 16777216.0 - 0.5) * 0.02;
            const double left = envelope * sin(2 * M_PI * 220.0 * t) + hiss;
            const double right = envelope * sin(2 * M_PI * 221.5 * t + 0.3) - hiss;
            buffer[2 * i] = (float)(left * 0.5);
            buffer[2 * i + 1] = (float)(right * 0.5);
        }
        if (sf_writef_float(file, buffer, frames) != frames) {
            snprintf(error, 256, "%s", sf_strerror(file));
            sf_close(file);
            return -1;
        }
    }
    sf_close(file);
    return 0;
}

int kb_wf_format_wav16(void) { return SF_FORMAT_WAV | SF_FORMAT_PCM_16; }
int kb_wf_format_flac16(void) { return SF_FORMAT_FLAC | SF_FORMAT_PCM_16; }
int kb_wf_format_mp3(void) { return SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III; }
