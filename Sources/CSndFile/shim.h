// libsndfile's C API: the audio decoder behind the Waveform module (WAV, AIFF, CAF, FLAC, Ogg, Opus, MP3).
#include <sndfile.h>
