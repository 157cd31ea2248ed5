/// How the samples of a file become 16-bit values.
enum SampleKind {
    /// Integer PCM (and FLAC): `sf_readf_short`, as audiowaveform reads it.
    case integer
    /// Samples stored as floats: read as floats, × 32767 truncated and clamped, as audiowaveform
    /// converts them.
    case storedFloat
    /// Lossy codecs that decode to floats (Vorbis, Opus, MPEG): read as floats, × 32767 rounded to
    /// nearest as libsndfile's `sf_readf_short` rounds them, but clamped where libsndfile would let
    /// a sample beyond full scale wrap around.
    case decodedFloat
}
