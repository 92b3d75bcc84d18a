// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
import CEspeakNG
import EngineSandbox
import EspeakHelperWire
import Glibc
import PiperRendering

// announced-piper: Piper voices (VITS models on ONNX Runtime, through sherpa-onnx's C API), in a
// sandboxed process of its own, on the same wire as announced-espeak (EspeakHelperWire).
//
// Start-up: the engine's library is loaded (PiperEngine: ANNOUNCED_PIPER_LIBRARY_DIR, beside the
// executable, or /usr/lib/announced/piper), the sandbox is entered (PiperSandbox), espeak-ng is
// initialized for phonemes only, and `ready` announces 22,050 Hz and no voices. Voices are
// named by path: `prepare` loads one ahead of use, `synthesize` loads it when it is not the
// current one (`voiceFailed` and `done` when it cannot be).
//
// Text is phonemized in-process by espeak-ng (IPA, the voice's espeak voice), a clause at a time,
// and synthesized a sentence at a time (UtteranceSynthesis); `abort` is read between chunks and in
// the engine's progress callback, which sherpa-onnx calls once a chunk's audio is made (ONNX
// Runtime's run itself cannot be interrupted): the helper stops within one chunk's synthesis, at
// most a few hundred milliseconds, while the daemon has already dropped the audio.
//
// How the daemon starts it: no arguments; standard input and output are its two pipes (frames of
// EspeakHelperWire), standard error the daemon's log; no other descriptor. Its environment as
// announced-espeak's (SWIFT_BACKTRACE=enable=no), with HOME or XDG_DATA_HOME for the user's voice
// directory. A voice is named by the absolute path of its .onnx, which must lie in a voice
// directory (PiperSandbox), else it fails with "Permission denied". Loading a voice (`prepare`, or
// the first `synthesize` naming it) sends nothing for 1.5-6 s on two cores: the daemon's "silent
// for 5 s" rule must wait longer for `voicePrepared` (30 s is safe). Unloading a voice is ending
// the helper (its memory goes back to the system whole).
//
// Rate is a speed factor (words per minute / 175, as espeak-ng's normal rate), volume a gain
// (volume / 100). Pitch is not supported by Piper voices: the request's pitch is ignored.
// Punctuation modes are not spoken (the voice hears punctuation as pauses and intonation).
//
// Environment: ANNOUNCED_PIPER_LIBRARY_DIR (PiperEngine), ANNOUNCED_PIPER_VOICE_DIRS (PiperSandbox),
// ANNOUNCED_PIPER_THREADS (below), ANNOUNCED_PIPER_NOISE=0 (below: repeatable audio, for
// tests), and in debug builds ANNOUNCED_PIPER_UNSANDBOXED (PiperSandbox).
//
// Exit statuses: 0 when the daemon closed the pipe; 1 when the engine or espeak-ng cannot be
// loaded (after `initializationFailed`: 1 for the engine, 2 for espeak-ng; the reason is on
// standard error); 2 on a malformed request; 3 when the sandbox cannot be entered.

signal(SIGPIPE, SIG_IGN)
_ = CAnnounceLinux_set_malloc_mmap_threshold(128 << 10)
nonisolated(unsafe) let input = FrameChannel(fd: STDIN_FILENO)
nonisolated(unsafe) let output = FrameChannel(fd: STDOUT_FILENO)

/// Writes a line to standard error (the daemon's log).
func say(_ line: String) {
    let bytes = Array(("announced-piper: " + line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// ONNX Runtime's threads for one synthesis: `ANNOUNCED_PIPER_THREADS` (the daemon sets it from its
/// `piper_threads` setting), at most the machine's online cores; without it 2, `piper_threads`'
/// default (the `piper_threads` entry of DaemonConfiguration's SettingsTable). Read before
/// the sandbox, which may hide /sys.
let threads: Int32 = {
    let cores = Int32(clamping: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    let asked = getenv("ANNOUNCED_PIPER_THREADS").flatMap { Int32(String(cString: $0)) } ?? 2
    return min(max(asked, 1), cores)
}()

/// `ANNOUNCED_PIPER_NOISE=0`: VITS's noise scales are (almost) 0 instead of the voice's, so the
/// same phonemes give the same durations and samples within a step or two of each other (for tests
/// that compare audio; the voice sounds flatter). LoadedVoice.noNoise says why not exactly 0.
let noiseless = getenv("ANNOUNCED_PIPER_NOISE").map { String(cString: $0) == "0" } ?? false

let engine: PiperEngine
do {
    engine = try PiperEngine.load()
} catch {
    say(error.message)
    output.write(HelperMessage.initializationFailed(code: 1).frame)
    exit(1)
}
// espeak-ng's data directory is known before espeak-ng starts: its initialization starts a
// thread, which must be born inside the sandbox (Landlock binds the threads that exist when it is
// applied and their children, not threads started before).
espeak_ng_InitializePath(nil)
// espeak-ng's initialization sets LC_CTYPE to C.UTF-8; inside the sandbox the locale's files cannot
// be read, so it is loaded here (glibc keeps it), else espeak-ng would phonemize in the C locale.
setlocale(LC_CTYPE, "C.UTF-8")
var espeakData: UnsafePointer<CChar>?
_ = espeak_Info(&espeakData)

// From here on the helper reads only the engine, espeak-ng's data and the voice directories.
PiperSandbox.enter(engineDirectory: engine.directory, espeakData: espeakData.map { String(cString: $0) }, reportingTo: output)
// Only the phonemizer: espeak_Initialize would also set up audio output (libpulse's configuration).
guard espeak_ng_Initialize(nil) == ENS_OK else {
    say("espeak-ng, which phonemizes for Piper voices, cannot be initialized (is espeak-ng-data installed?)")
    output.write(HelperMessage.initializationFailed(code: 2).frame)
    exit(1)
}
guard output.write(HelperMessage.ready(sampleRate: Int32(UtteranceSynthesis.outputRate), voices: []).frame) else { exit(0) }

nonisolated(unsafe) var currentVoice: LoadedVoice?

/// The voice `path`, loaded if it is not the current one.
func voice(_ path: String) -> Result<LoadedVoice, LoadedVoice.Problem> {
    if let currentVoice, currentVoice.path == path { return .success(currentVoice) }
    currentVoice = nil  // one model in memory at a time
    do {
        let loaded = try LoadedVoice(path: path, engine: engine, threads: threads, noiseless: noiseless)
        guard espeak_SetVoiceByName(loaded.file.espeakVoice) == EE_OK else {
            return .failure(LoadedVoice.Problem(message: "espeak-ng has no voice \(loaded.file.espeakVoice), which \(path) is phonemized with"))
        }
        // ONNX Runtime's first run allocates its buffers: done here, the first post is warm.
        _ = loaded.synthesize(phonemes: "həlˈoʊ.".unicodeScalars.map { Int32(bitPattern: $0.value) }, speed: 1) { true }
        currentVoice = loaded
        return .success(loaded)
    } catch {
        return .failure(error)
    }
}

/// Set once the daemon asked to stop the utterance.
nonisolated(unsafe) var stopRequested = false

/// Whether the daemon asked to stop: reads its `abort` when one has come.
func shouldStop() -> Bool {
    if !stopRequested, input.hasInput {
        // During an utterance the daemon sends nothing but `abort`.
        stopRequested = true
        guard let frame = input.readFrame() else { exit(0) }
        if (try? HelperRequest(tag: frame.tag, payload: frame.payload)) != .abort { exit(2) }
    }
    return stopRequested
}

while let frame = input.readFrame() {
    let request: HelperRequest
    do {
        request = try HelperRequest(tag: frame.tag, payload: frame.payload)
    } catch {
        exit(2)
    }
    switch request {
    case .abort:
        continue
    case .prepare(let path):
        let answer: HelperMessage
        switch voice(path) {
        case .success: answer = .voicePrepared(status: 0, message: "")
        case .failure(let problem):
            say(problem.message)
            answer = .voicePrepared(status: 1, message: problem.message)
        }
        guard output.write(answer.frame) else { exit(0) }
    case .synthesize(let utterance):
        #if DEBUG
        if let answer = SandboxProbe.answer(to: utterance.text) {
            output.writeProbeAnswer(answer)
            continue
        }
        #endif
        let loaded: LoadedVoice
        switch voice(utterance.voice) {
        case .success(let voice): loaded = voice
        case .failure(let problem):
            say(problem.message)
            output.write(HelperMessage.voiceFailed(message: problem.message).frame)
            guard output.write(HelperMessage.done(status: 0).frame) else { exit(0) }
            continue
        }
        guard output.write(HelperMessage.voiceSelected.frame) else { exit(0) }
        stopRequested = false
        var synthesis = UtteranceSynthesis(
            voice: loaded, output: output, rate: utterance.rate, volume: utterance.volume, shouldStop: shouldStop
        )
        let spoken = synthesis.speak(SpeechText(utterance.text, ssml: utterance.ssml))
        guard output.write(HelperMessage.done(status: spoken || stopRequested ? 0 : 1).frame) else { exit(0) }
    }
}
exit(0)
