/// audiowaveform's algorithm written out frame by frame, the way its C++ does it: what the
/// vectorised analyzer is checked against.
enum ReferenceMinMax {
    static func pairs(_ samples: [Int16], channels: Int, zoom: Int, bits: Int = 16, split: Bool = false) -> [Int16] {
        let outputs = split ? channels : 1
        var result: [Int16] = []
        var low = [Int](repeating: Int(Int16.max), count: outputs)
        var high = [Int](repeating: Int(Int16.min), count: outputs)
        var count = 0
        func emit() {
            for channel in 0..<outputs {
                result.append(Int16(bits == 8 ? low[channel] / 256 : low[channel]))
                result.append(Int16(bits == 8 ? high[channel] / 256 : high[channel]))
                low[channel] = Int(Int16.max)
                high[channel] = Int(Int16.min)
            }
            count = 0
        }
        for frame in 0..<(samples.count / channels) {
            if split {
                for channel in 0..<channels {
                    let value = Int(samples[frame * channels + channel])
                    low[channel] = min(low[channel], value)
                    high[channel] = max(high[channel], value)
                }
            } else {
                var sum = 0
                for channel in 0..<channels { sum += Int(samples[frame * channels + channel]) }
                let value = sum / channels
                low[0] = min(low[0], value)
                high[0] = max(high[0], value)
            }
            count += 1
            if count == zoom { emit() }
        }
        if count > 0 { emit() }
        return result
    }
}
