// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Foundation
import Logging
import POSIXThreads

@testable import SpeechSynthesis

/// A third engine for the tests, beside espeak-ng and Piper in the one list: its helper is a
/// script that speaks the engines' wire (`EngineWire`) and says every text as the same 100 ms
/// tone (``tone``), in its one voice, `fake-tone`. Its voices take no variants and it is no
/// language fallback (the default capabilities).
final class FakeToneEngine: SpeechEngine, @unchecked Sendable {
    /// The engine's name, and its voice's.
    static let name = "fake-tone"
    /// The variable that names the helper script (set by ``installHelper()``).
    static let helperVariable = "ANNOUNCED_FAKE_TONE_HELPER"
    /// The helper's sample rate, the first engine's (espeak-ng's), so nothing is resampled.
    static let sampleRate = 22_050
    /// What the helper says for any text: 100 ms of a 440 Hz sine at a quarter of full scale.
    static let tone: [Int16] = (0..<2_205).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / 22_050)) }

    let helperKind = EngineHelperKind(
        engine: FakeToneEngine.name, executableName: "fake-tone-helper", environmentVariable: helperVariable)
    let crashAdvice = "The fake engine's helper is a test script."
    private(set) var voices: [VoiceDescription] = []
    private(set) var sampleRate: Int?
    private let lock = ConditionLock()
    private var warm: EngineHelperProcess?
    private var busy = false

    /// Writes the helper script to one temporary file (replaced whole by each test run, so runs
    /// leave one file behind, not one each) and names it in ``helperVariable``.
    static func installHelper() throws {
        let path = NSTemporaryDirectory() + "announced-fake-tone-helper-\(getuid())"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        setenv(helperVariable, path, 1)
    }

    /// Starts the helper with the thread, as espeak-ng's, and takes its voices and rate.
    func start() throws(SpeechSynthesisError) {
        let process = try EngineHelperProcess(kind: helperKind)
        try process.start()
        warm = process
        voices = process.voices
        sampleRate = process.sampleRate
    }

    /// Its one voice installed as a file, in a catalog of its own (as Piper's voices are).
    func makeInstalledVoiceCatalog(
        environment: [String: String], logger: Logger, filesChanged: @escaping @Sendable (Set<String>) -> Void
    ) -> (any InstalledVoiceCatalog)? {
        InstalledVoices()
    }

    /// The engine's installed voices: one, which never changes.
    final class InstalledVoices: InstalledVoiceCatalog {
        /// The installed voice: its identifier is its file, as a Piper voice's is.
        static let voice = VoiceDescription(
            name: "fake-installed", identifier: "/fake/voices/fake-installed", languages: ["x-fake"],
            engine: FakeToneEngine.name, capabilities: EngineCapabilities())
        let voices = [InstalledVoices.voice]
        func onChange(_ observer: @escaping @Sendable ([VoiceDescription]) -> Void) {}
        func startWatching() {}
        func whenCurrent(_ current: @escaping @Sendable () -> Void) { current() }
        func stopWatching(then stopped: @escaping @Sendable () -> Void) { stopped() }
    }

    func helper(for voice: String, on thread: SpeechThread, logger: Logger) -> EngineHelperAnswer {
        lease(for: voice, cancelled: { false }, logger: logger)
    }

    func readyHelper(for voice: String, logger: Logger) -> EngineHelperProcess? {
        lock.withLock {
            guard !busy, let warm, warm.isRunning else { return nil }
            busy = true
            return warm
        }
    }

    /// The warm helper when it is free, else a helper started for this request.
    func lease(for voice: String, cancelled: () -> Bool, logger: Logger) -> EngineHelperAnswer {
        if let ready = readyHelper(for: voice, logger: logger) { return .ready(ready) }
        do {
            let spare = try EngineHelperProcess(kind: helperKind)
            try spare.start()
            return .ready(spare)
        } catch {
            return .failed(error.message)
        }
    }

    func giveBack(_ helper: EngineHelperProcess, voice: String, logger: Logger) {
        let isWarm = lock.withLock {
            guard helper === warm else { return false }
            busy = false
            return true
        }
        if !isWarm { helper.stop() }
    }

    func shutDown() {
        lock.withLock { warm }?.stop()
    }

    /// The helper: `ready` with its one voice, then for each `synthesize` the voice's answer,
    /// the tone in one `samples` frame and `done`; `abort` comes only after `done` and is ignored.
    static let script = #"""
        #!/usr/bin/python3
        import math, struct, sys
        inp, out = sys.stdin.buffer, sys.stdout.buffer
        def string(text):
            data = text.encode()
            return struct.pack('<I', len(data)) + data
        def send(tag, payload=b''):
            out.write(bytes([tag]) + struct.pack('<I', len(payload)) + payload)
            out.flush()
        def read(count):
            data = b''
            while len(data) < count:
                more = inp.read(count - len(data))
                if not more:
                    sys.exit(0)
                data += more
            return data
        voice = string('fake-tone') + struct.pack('<I', 1) + string('x-fake') + string('fake-tone') + bytes([0])
        send(0x52, struct.pack('<iI', 22050, 1) + voice + string('A fake tone'))
        tone = b''.join(struct.pack('<h', int(8000 * math.sin(2 * math.pi * 440 * i / 22050))) for i in range(2205))
        while True:
            head = read(5)
            read(struct.unpack('<I', head[1:])[0])
            if head[0] == 0x53:
                send(0x4F)
                send(0x50, tone)
                send(0x44, struct.pack('<i', 0))
        """#
}
