// SPDX-License-Identifier: GPL-3.0-or-later
import CEspeakNG
import EngineWire
import Glibc
import HelperRuntime
import PiperRendering

/// Piper voices on sherpa-onnx as the helper's engine: one voice loaded at a time, phonemized by
/// espeak-ng in-process, synthesized a sentence at a time (UtteranceSynthesis).
final class PiperSynthesizer: HelperEngine {
    let runtime: HelperRuntime
    /// The helper's output rate, whatever the voice's.
    let sampleRate = Int32(UtteranceSynthesis.outputRate)
    /// Piper's voices are files, named by path: none is listed.
    let voices: [EngineVoice] = []
    /// sherpa-onnx's C API.
    private let library: SherpaOnnxLibrary
    /// ONNX Runtime's threads for one synthesis: `ANNOUNCED_PIPER_THREADS` (the daemon sets it
    /// from its `piper_threads` setting), at most the machine's online cores; without it 2,
    /// `piper_threads`' default (the `piper_threads` entry of DaemonConfiguration's SettingsTable).
    /// Read before the sandbox, which may hide /sys.
    private let threads: Int32
    /// `ANNOUNCED_PIPER_NOISE=0`: VITS's noise scales are (almost) 0 instead of the voice's, so
    /// the same phonemes give the same durations and samples within a step or two of each other
    /// (for tests that compare audio; the voice sounds flatter). LoadedVoice.noNoise says why
    /// not exactly 0.
    private let noiseless: Bool
    /// The voice loaded: one model in memory at a time.
    private var currentVoice: LoadedVoice?

    init(runtime: HelperRuntime) {
        self.runtime = runtime
        let cores = Int32(clamping: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let asked = getenv("ANNOUNCED_PIPER_THREADS").flatMap { Int32(String(cString: $0)) } ?? 2
        threads = min(max(asked, 1), cores)
        noiseless = getenv("ANNOUNCED_PIPER_NOISE").map { String(cString: $0) == "0" } ?? false
        do {
            library = try SherpaOnnxLibrary.load()
        } catch {
            runtime.say(error.message)
            runtime.failInitialization(code: 1)
        }
        // espeak-ng's data directory is known before espeak-ng starts: its initialization starts a
        // thread, which must be born inside the sandbox (Landlock binds the threads that exist when
        // it is applied and their children, not threads started before).
        espeak_ng_InitializePath(nil)
        // espeak-ng's initialization sets LC_CTYPE to C.UTF-8; inside the sandbox the locale's files
        // cannot be read, so it is loaded here (glibc keeps it), else espeak-ng would phonemize in
        // the C locale.
        setlocale(LC_CTYPE, "C.UTF-8")
        var espeakData: UnsafePointer<CChar>?
        _ = espeak_Info(&espeakData)
        // From here on the helper reads only the engine, espeak-ng's data and the voice directories.
        runtime.enterSandbox(
            reading: [library.directory] + (espeakData.map { [String(cString: $0)] } ?? [])
                + PiperSandboxPaths.voiceDirectories()
                + PiperSandboxPaths.processorDescription,
            allowances: [.threads, .memoryFiles, .runtimeQueries],
            switchedOffBy: "ANNOUNCED_PIPER_UNSANDBOXED"
        )
        // Only the phonemizer: espeak_Initialize would also set up audio output (libpulse's configuration).
        guard espeak_ng_Initialize(nil) == ENS_OK else {
            runtime.say(
                "espeak-ng, which phonemizes for Piper voices, cannot be initialized (is espeak-ng-data installed?)")
            runtime.failInitialization(code: 2)
        }
    }

    func selectVoice(_ voice: String) -> VoiceSelection {
        load(voice)
    }

    func prepare(voice: String) -> VoiceSelection? {
        load(voice)
    }

    /// Loads the voice `path` unless it is the current one.
    private func load(_ path: String) -> VoiceSelection {
        if let currentVoice, currentVoice.path == path { return .selected }
        currentVoice = nil // one model in memory at a time
        do {
            let loaded = try LoadedVoice(path: path, engine: library, threads: threads, noiseless: noiseless)
            guard espeak_SetVoiceByName(loaded.file.espeakVoice) == EE_OK else {
                return .failed("espeak-ng has no voice \(loaded.file.espeakVoice), which \(path) is phonemized with")
            }
            // ONNX Runtime's first run allocates its buffers: done here, the first post is warm.
            _ = loaded.synthesize(phonemes: "həlˈoʊ.".unicodeScalars.map { Int32(bitPattern: $0.value) }, speed: 1) {
                true
            }
            currentVoice = loaded
            return .selected
        } catch {
            return .failed(error.message)
        }
    }

    func speak(_ utterance: SynthesisRequest) -> Int32 {
        guard let voice = currentVoice else { return 1 }
        var synthesis = UtteranceSynthesis(
            voice: voice, runtime: runtime, rate: utterance.rate, volume: utterance.volume)
        return synthesis.speak(SpeechText(utterance.text, ssml: utterance.ssml)) ? 0 : 1
    }
}
