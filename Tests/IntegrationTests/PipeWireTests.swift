// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// The PulseAudio output through PipeWire, as on most desktops today: a private headless session
/// (its own D-Bus, pipewire, wireplumber and pipewire-pulse under a private runtime directory) with
/// a null sink whose monitor is recorded, and the same recorded test as ``PulseAudioTests``.
@Suite(
    "Daemon: PulseAudio output through a headless PipeWire", .onBlockingThreads, .serialized,
    .enabled(if: HeadlessPipeWire.canRecord, HeadlessPipeWire.missingReason))
struct PipeWireTests {
    @Test("an announcement is heard for about as long as espeak-ng's WAV; a stopped one clearly less")
    func playsAndStops() throws {
        let session = try HeadlessPipeWire()
        let recorder = try MonitorRecorder(
            executable: URL(fileURLWithPath: HeadlessPulseAudio.parec!), environment: session.serverEnvironment,
            sink: session.sinkName, latency: 20
        )
        try checkPlaysAndStops(label: "pipewire", clientEnvironment: session.clientEnvironment, recorder: recorder)
    }

    @Test("pause silences the sink and resume plays the rest: all of the post is heard, nothing twice")
    func pauseAndResume() throws {
        let session = try HeadlessPipeWire()
        let recorder = try MonitorRecorder(
            executable: URL(fileURLWithPath: HeadlessPulseAudio.parec!), environment: session.serverEnvironment,
            sink: session.sinkName, latency: 20
        )
        // PipeWire resamples through 48 kHz: the stretches heard are compared, not the samples.
        try checkPauseAndResume(
            label: "pipewire", clientEnvironment: session.clientEnvironment, recorder: recorder, sampleExact: false)
    }
}

extension HeadlessPipeWire {
    static var canRecord: Bool { isInstalled && HeadlessPulseAudio.parec != nil }
    static var missingReason: Comment {
        let missing = missingPrograms + (HeadlessPulseAudio.parec == nil ? ["parec"] : [])
        return
            "not installed: \(missing.joined(separator: ", ")) (apt-get install pipewire wireplumber pipewire-pulse dbus pulseaudio-utils)"
    }
}
