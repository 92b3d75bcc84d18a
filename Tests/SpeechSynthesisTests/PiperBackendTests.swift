// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import BlockingThreads
import Foundation
import Glibc
import POSIXThreads
import TestSupport
import Testing

@testable import SpeechSynthesis

/// Where the real Piper engine and test voice are, once `scripts/fetch-piper-engine.sh` ran.
enum PiperFixture {
    /// The engine's libraries: `.build/piper-engine/lib` of this checkout.
    static let libraryDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/piper-engine/lib").path
    /// en_US-joe-medium, as the script unpacks it.
    static let voicePath =
        (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache")
        + "/announced/voices/en_US-joe-medium.onnx"

    /// Whether the engine, the voice and the helper are all there.
    static var isFetched: Bool {
        FileManager.default.fileExists(atPath: libraryDirectory + "/libsherpa-onnx-c-api.so")
            && FileManager.default.fileExists(atPath: voicePath)
            && FileManager.default.fileExists(atPath: voicePath + ".json")
    }

    static let skipNote = "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh"

    /// The test voice as the voices list gives it.
    static let voice = VoiceDescription(
        name: "en_us-joe-medium", identifier: voicePath, languages: ["en-us"], engine: "piper",
        capabilities: PiperEngine.helper.capabilities)

    /// A speech thread whose Piper helper loads the engine from this checkout and may read the
    /// voice where the script put it (its sandbox reads only voice directories); `idle` is its
    /// idle time.
    static func thread(idle: Duration = .seconds(300)) -> SpeechThread {
        setenv("ANNOUNCED_PIPER_LIBRARY_DIR", libraryDirectory, 1)
        setenv("ANNOUNCED_PIPER_VOICE_DIRS", (voicePath as NSString).deletingLastPathComponent, 1)
        return SpeechThread.start(engines: [EspeakEngine(), PiperEngine(idleUnload: idle)])
    }

    /// A backend on `thread` that knows the test voice as a Piper voice.
    static func backend(_ thread: SpeechThread, output: any AudioOutput = NullAudioOutput(), recorder: EventRecorder)
        throws -> EngineBackend
    {
        try EngineBackend(
            thread: thread, output: output, logger: TestAudio.logger, eventHandler: recorder.handler,
            installedVoices: { [voice] }
        )
    }
}

/// What a request on another thread was answered, once it was: the helper's process id, or why not.
final class LockedAnswer: Sendable {
    enum Answer: Sendable, Equatable {
        case ready(pid: Int32)
        case failed(String)
        case aborted
    }
    private let answer = LockedValue<Answer?>(nil)
    func set(_ value: EngineHelperAnswer) {
        let summary: Answer =
            switch value {
            case .ready(let helper): .ready(pid: helper.pid)
            case .failed(let why): .failed(why)
            case .aborted: .aborted
            }
        answer.withLock { $0 = summary }
    }
    func get() -> Answer? { answer.withLock { $0 } }
}

/// The real Piper engine (`announced-piper`, sherpa-onnx, en_US-joe-medium) behind the engine
/// seam: lazy start, loading that holds up no other post, unloading when idle, and a crash that
/// costs one post. Serialized: each test starts its own helper and loads a 60 MB model.
@Suite(.serialized, .onBlockingThreads, .enabled(if: PiperFixture.isFetched, "\(PiperFixture.skipNote)"))
struct PiperBackendTests {
    @Test(
        "a Piper post starts the helper, loads the voice and is heard: started, then completed, non-silent audio at espeak-ng's rate"
    )
    func speaksThroughPiper() async throws {
        // Idle for longer than the test can take (it awaits on the blocking executor, behind other
        // suites' blocking tests): the voice checked as loaded at the end is not unloaded as idle.
        let thread = PiperFixture.thread(idle: .seconds(3_600))
        #expect(thread.piper.loadState.pid == 0, "no Piper helper before the first Piper post")
        let output = try WAVAudioOutput(directory: TestAudio.temporaryDirectory())
        var recorder = EventRecorder()
        let backend = try PiperFixture.backend(thread, output: output, recorder: recorder)
        #expect(backend.engineName(forVoice: PiperFixture.voicePath) == "piper")
        backend.speak(Utterance(seq: 1, text: "Download complete.", voice: PiperFixture.voicePath))
        let events = await recorder.events(untilFinished: 1)
        #expect(events.first == .started(seq: 1))
        #expect(events.last == .finished(seq: 1, outcome: .completed))
        let wav = try #require(WAVFile.pcm(try Data(contentsOf: URL(fileURLWithPath: output.path(forSeq: 1)))))
        #expect(wav.sampleRate == backend.sampleRate)
        let loudest = wav.samples.map { Int(abs(Int32($0))) }.max() ?? 0
        print("Piper: \(wav.samples.count) samples at \(wav.sampleRate) Hz, peak \(loudest)")
        #expect(wav.samples.count > wav.sampleRate / 2, "about a second of speech")
        #expect(loudest > 1_000, "not silent")
        #expect(thread.piper.loadState.voice == PiperFixture.voicePath)
    }

    @Test("while a Piper voice loads, espeak-ng's posts speak; a Piper post stopped during the load ends at once")
    func loadingHoldsUpNothingElse() async throws {
        let thread = PiperFixture.thread()
        var recorder = EventRecorder()
        let backend = try PiperFixture.backend(thread, recorder: recorder)
        backend.speak(Utterance(seq: 1, text: "Natural voice.", voice: PiperFixture.voicePath))
        // The engine reports its loads to the speech thread, not to tests: its state is polled.
        try #require(
            pollUntil(timeout: 30) {
                thread.piper.loadState.loading == PiperFixture.voicePath && thread.piper.loadState.pid > 0
            })
        // Held mid-load (a load that takes as long as it likes), so the check cannot race it.
        let pid = thread.piper.loadState.pid
        kill(pid, SIGSTOP)
        try #require(
            thread.piper.loadState.loading == PiperFixture.voicePath, "the load ended before the helper was held")
        backend.abort(seq: 1)
        let first = await recorder.events(untilFinished: 1)
        #expect(first == [.finished(seq: 1, outcome: .aborted(spokenChars: 0))])
        backend.speak(Utterance(seq: 2, text: "Meanwhile.", voice: "en-us", rate: 450))
        let second = await recorder.events(untilFinished: 2)
        #expect(second.last == .finished(seq: 2, outcome: .completed))
        #expect(thread.piper.loadState.loading == PiperFixture.voicePath, "still loading")
        kill(pid, SIGCONT)
        backend.speak(Utterance(seq: 3, text: "Now loaded.", voice: PiperFixture.voicePath))
        let third = await recorder.events(untilFinished: 3)
        #expect(third.first == .started(seq: 3))
        #expect(third.last == .finished(seq: 3, outcome: .completed))
    }

    @Test("prepare loads the voice in the background, and an idle helper is stopped, unloading it")
    func prepareAndIdleUnload() async throws {
        let thread = PiperFixture.thread(idle: .seconds(1))
        let recorder = EventRecorder()
        let backend = try PiperFixture.backend(thread, recorder: recorder)
        backend.prepare(voice: "en-us")
        #expect(thread.piper.loadState.pid == 0, "espeak-ng's voices need no preparing")
        backend.prepare(voice: PiperFixture.voicePath)
        let loaded = pollUntil(timeout: 60) { thread.piper.loadState.voice == PiperFixture.voicePath }
        try #require(loaded, "the voice did not load")
        let pid = thread.piper.loadState.pid
        #expect(pid > 0 && kill(pid, 0) == 0)
        // Idle for a second: stopped and reaped.
        #expect(pollUntil(timeout: 30) { thread.piper.loadState.pid == 0 })
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the helper process is gone")
        #expect(thread.piper.loadState.voice == nil)
    }

    // A Spiel stream (`lease`) that asks for the voice while the loader is stopping its idle
    // helper used to take that for "loading another voice": it loaded a spare of its own and
    // stopped it after the stream, so the next request loaded the voice a second time.
    @Test(
        "a stream that asks for the voice while its idle helper is being stopped waits for the one load, with no spare")
    func leaseDuringIdleUnload() async throws {
        let thread = PiperFixture.thread(idle: .seconds(1))
        let engine = thread.piper
        let unloading = Latch()
        let resume = Latch()
        engine.onIdleStop {
            unloading.open()
            resume.wait()
        }
        engine.prepare(voice: PiperFixture.voicePath, logger: TestAudio.logger)
        try #require(
            pollUntil(timeout: 60) { engine.loadState.voice == PiperFixture.voicePath }, "the voice did not load")
        // Idle for a second: the loader is about to stop the helper, and holds there.
        try #require(unloading.wait(timeout: .seconds(30)), "the idle helper was not stopped")
        let answer = LockedAnswer()
        let leasing = Thread {
            answer.set(engine.lease(for: PiperFixture.voicePath, cancelled: { false }, logger: TestAudio.logger))
        }
        leasing.start()
        // The request has chosen: it returned with a helper of its own, or it waits for the loader.
        let chose = pollUntil(timeout: 60) {
            answer.get() != nil || engine.wantedVoices.contains(PiperFixture.voicePath)
        }
        resume.open()
        try #require(chose, "the request neither returned nor asked the loader for its voice")
        try #require(pollUntil(timeout: 60) { answer.get() != nil }, "the request got no helper")
        let pid = engine.loadState.pid
        #expect(pid > 0)
        #expect(answer.get() == .ready(pid: pid), "the engine's own helper, loaded once, not a spare")
        #expect(engine.loadState.voice == PiperFixture.voicePath)
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in thread.stop { stopped.resume() }
        }
    }

    @Test("piper_threads reaches the helper as ANNOUNCED_PIPER_THREADS, capped at the machine's cores")
    func threadsReachTheHelper() async throws {
        let thread = PiperFixture.thread()
        let recorder = EventRecorder()
        let backend = try PiperFixture.backend(thread, recorder: recorder)
        thread.configureEngines(EngineSettings(synthesisThreads: 1_000))
        backend.prepare(voice: PiperFixture.voicePath)
        try #require(
            pollUntil(timeout: 60) { thread.piper.loadState.voice == PiperFixture.voicePath }, "the voice did not load")
        let pid = thread.piper.loadState.pid
        let environment = try String(
            decoding: Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ")), as: UTF8.self
        )
        .split(separator: "\0").map(String.init)
        let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        print(
            "Piper helper \(pid) on \(cores) cores: \(environment.filter { $0.hasPrefix("ANNOUNCED_PIPER_THREADS=") })")
        #expect(environment.filter { $0.hasPrefix("ANNOUNCED_PIPER_THREADS=") } == ["ANNOUNCED_PIPER_THREADS=\(cores)"])
    }

    @Test(
        "a Piper helper killed mid-post costs that post (error naming piper); espeak-ng speaks on, and Piper again after"
    )
    func crashCostsOnePost() async throws {
        let thread = PiperFixture.thread()
        var recorder = EventRecorder()
        let backend = try PiperFixture.backend(thread, recorder: recorder)
        let long = String(repeating: "This sentence keeps the natural voice busy for a while. ", count: 10)
        backend.speak(Utterance(seq: 1, text: long, voice: PiperFixture.voicePath))
        _ = await recorder.events(through: { $0 == .started(seq: 1) })
        let pid = thread.piper.loadState.pid
        try #require(pid > 0)
        kill(pid, SIGKILL)
        let first = await recorder.events(untilFinished: 1)
        guard case .failed(let message, _)? = first.outcome(of: 1) else {
            Issue.record("expected the post to fail, got \(first)")
            return
        }
        #expect(message.contains("piper crashed while speaking this text"), "\(message)")
        #expect(message.contains("signal 9"), "\(message)")
        backend.speak(Utterance(seq: 2, text: "Still here.", voice: "en-us", rate: 450))
        #expect(await recorder.events(untilFinished: 2).last == .finished(seq: 2, outcome: .completed))
        backend.speak(Utterance(seq: 3, text: "Back again.", voice: PiperFixture.voicePath))
        let third = await recorder.events(untilFinished: 3)
        #expect(third.last == .finished(seq: 3, outcome: .completed))
        #expect(thread.piper.loadState.pid != pid && thread.piper.loadState.pid > 0, "a new helper")
    }

    // `SpeechThread.stop`, as the daemon's speech service calls it on graceful shutdown.
    @Test(
        "stop ends the posts it holds as aborted, stops Piper's helper (reaped), then says it stopped, at once the second time"
    )
    func stopEndsTheHelpers() async throws {
        let thread = PiperFixture.thread()
        var recorder = EventRecorder()
        let backend = try PiperFixture.backend(thread, recorder: recorder)
        backend.speak(Utterance(seq: 1, text: "Loaded.", voice: PiperFixture.voicePath))
        _ = await recorder.events(untilFinished: 1)
        let piper = thread.piper.loadState.pid
        try #require(piper > 0, "Piper's helper runs")
        // Held by a pause: one post being spoken or queued, one queued behind it.
        backend.pause()
        let espeak = try #require(backend.voices.first { $0.engine == "espeak-ng" }?.identifier)
        backend.speak(Utterance(seq: 2, text: "Held.", voice: espeak))
        backend.speak(Utterance(seq: 3, text: "Queued.", voice: espeak))
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in thread.stop { stopped.resume() }
        }
        #expect(kill(piper, 0) == -1 && errno == ESRCH, "Piper's helper was stopped and reaped")
        #expect(thread.piper.loadState.pid == 0)
        // The queued post ends on the stopping thread, the held one on the speech thread: in
        // either order.
        var ended: [UInt64: SpeechOutcome] = [:]
        _ = await recorder.events { event in
            if case .finished(let seq, let outcome) = event { ended[seq] = outcome }
            return ended.count == 2
        }
        #expect(ended[2].map { if case .aborted = $0 { true } else { false } } == true, "\(ended)")
        #expect(ended[3] == .aborted(spokenChars: 0), "\(ended)")
        await withCheckedContinuation { (again: CheckedContinuation<Void, Never>) in thread.stop { again.resume() } }
    }
}
