// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio

/// One other application's playback stream (a PulseAudio sink input) that the ducker lowered:
/// who it is, the volume it had, and the volume announced gave it.
struct DuckedStream: Equatable {
    /// The sink input's index on the server.
    var index: UInt32
    /// The stream's `application.process.id`, if it has one: with `name`, what tells the same
    /// stream from a later one that got the same index (after the server restarted).
    var processID: String?
    /// The stream's name (`media.name`).
    var name: String
    /// The volume of each channel before it was lowered.
    var original: [UInt32]
    /// The volume of each channel announced set.
    var lowered: [UInt32]
}

/// A sink input's volume as plain numbers, one per channel, and the comparisons the ducker needs.
enum ChannelVolumes {
    /// How far a volume read back may be from the one set and still count as it: PipeWire's pulse
    /// server converts volumes to floating point and back, so a set volume can read back a unit or
    /// two off. A user's change (a step of a mixer, `pactl`) is far larger.
    static let tolerance: UInt32 = PA_VOLUME_NORM / 200

    /// The channels' volumes of `volume`.
    static func values(of volume: pa_cvolume) -> [UInt32] {
        var volume = volume
        let count = Int(min(volume.channels, UInt8(PA_CHANNELS_MAX)))
        return withUnsafeBytes(of: &volume.values) { Array($0.bindMemory(to: UInt32.self).prefix(count)) }
    }

    /// `values` as libpulse's volume type.
    static func cvolume(_ values: [UInt32]) -> pa_cvolume {
        var volume = pa_cvolume()
        volume.channels = UInt8(min(values.count, Int(PA_CHANNELS_MAX)))
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let channels = raw.bindMemory(to: UInt32.self)
            for (channel, value) in values.prefix(Int(PA_CHANNELS_MAX)).enumerated() { channels[channel] = value }
        }
        return volume
    }

    /// `values` lowered by `decibels` (each channel multiplied by the factor libpulse's software
    /// volume gives that many decibels).
    static func lowered(_ values: [UInt32], byDecibels decibels: Int) -> [UInt32] {
        let factor = pa_sw_volume_from_dB(Double(decibels))
        return values.map { pa_sw_volume_multiply($0, factor) }
    }

    /// Whether `read` is the volume `set` (the same channels, each within ``tolerance``).
    static func matches(_ read: [UInt32], _ set: [UInt32]) -> Bool {
        read.count == set.count && zip(read, set).allSatisfy { ($0 > $1 ? $0 - $1 : $1 - $0) <= tolerance }
    }
}
