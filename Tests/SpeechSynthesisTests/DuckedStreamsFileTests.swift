// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio
import Foundation
import Glibc
import Testing

@testable import SpeechSynthesis

@Suite("Ducking: the state file and the volume arithmetic")
struct DuckedStreamsFileTests {
    private func temporaryPath() -> String {
        "/tmp/announced-ducked-\(UUID().uuidString.prefix(8)).json"
    }

    @Test("written with mode 0600, read back as written, removed when nothing is lowered")
    func roundTrip() throws {
        let file = DuckedStreamsFile(path: temporaryPath())
        defer { file.remove() }
        let streams = [
            DuckedStream(
                index: 7, processID: "1234", name: "Music \"live\"", original: [65536, 60000], lowered: [41285, 37800]),
            DuckedStream(index: 9, processID: nil, name: "", original: [100], lowered: [63]),
        ]
        try file.write(streams)
        var status = stat()
        #expect(stat(file.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(file.read() == streams)
        try file.write([])
        #expect(access(file.path, F_OK) != 0)
        #expect(file.read().isEmpty)
    }

    @Test("a file that is not the ducker's names nothing")
    func garbage() throws {
        let path = temporaryPath()
        defer { unlink(path) }
        try Data("{\"streams\": [{\"index\": -1}], \"x\": 1".utf8).write(to: URL(fileURLWithPath: path))
        #expect(DuckedStreamsFile(path: path).read().isEmpty)
    }

    @Test("lowering by N dB gives a volume N dB down on every channel; a volume read back a unit off still matches")
    func volumes() {
        #expect(CPulseAudio_load() == nil)
        let original: [UInt32] = [PA_VOLUME_NORM, PA_VOLUME_NORM / 2]
        let lowered = ChannelVolumes.lowered(original, byDecibels: -12)
        for (before, after) in zip(original, lowered) {
            #expect(abs(pa_sw_volume_to_dB(after) - pa_sw_volume_to_dB(before) + 12) < 0.01)
        }
        #expect(ChannelVolumes.values(of: ChannelVolumes.cvolume(lowered)) == lowered)
        #expect(ChannelVolumes.matches(lowered.map { $0 + 1 }, lowered))
        #expect(!ChannelVolumes.matches(lowered.map { $0 / 2 }, lowered))
        #expect(!ChannelVolumes.matches([lowered[0]], lowered))
    }
}
