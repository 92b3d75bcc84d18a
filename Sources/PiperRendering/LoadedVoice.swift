// SPDX-License-Identifier: GPL-3.0-or-later
import CSherpaOnnx
public import PiperVoices

/// One Piper voice loaded into sherpa-onnx: its model on ONNX Runtime, ready to turn phonemes into audio.
public final class LoadedVoice {
    /// The `.onnx` it was loaded from.
    public let path: String
    /// What its `.onnx.json` says (read by PiperVoices, as the daemon reads it).
    public let file: PiperVoiceConfig
    /// The engine's output rate.
    public let sampleRate: Int
    private let engine: SherpaOnnxLibrary
    private let tts: OpaquePointer

    /// A voice that cannot be loaded: why, in words for the log and the daemon.
    public struct Problem: Error {
        /// What went wrong and what to do, in words for the log and the daemon.
        public let message: String

        /// A problem described by `message`.
        public init(message: String) {
            self.message = message
        }
    }

    /// Loads the voice `path` (a `.onnx`, its `.onnx.json` beside it), with ONNX Runtime running
    /// each synthesis on `threads` threads; `noiseless`: VITS's noise scales are ``noNoise``
    /// instead of the voice's, so the same phonemes give the same audio within a step or two.
    public init(path: String, engine: SherpaOnnxLibrary, threads: Int32, noiseless: Bool) throws(Problem) {
        guard path.hasPrefix("/"), path.hasSuffix(".onnx") else {
            throw Problem(message: "\(path) is not the absolute path of a Piper voice's .onnx file")
        }
        let configPath = path + ".json"
        let file: PiperVoiceConfig
        do throws(PiperVoiceProblem) {
            file = try PiperVoiceConfig(contentsOf: configPath)
        } catch {
            // The daemon's words for the same file (its scan and `announcectl voices install`).
            throw Problem(message: "Piper voice \(configPath) \(error.problem)")
        }
        let prepared: PreparedModel
        do throws(PreparedModel.Problem) {
            prepared = try PreparedModel(onnxPath: path, voice: file)
        } catch {
            throw Problem(message: error.message)
        }
        defer { prepared.close() }
        var config = CSherpaOnnx_TtsConfig()
        let created: OpaquePointer? = prepared.modelPath.withCString { model in
            prepared.tokensPath.withCString { tokens in
                "cpu".withCString { provider in
                    config.model.vits.model = model
                    config.model.vits.tokens = tokens
                    config.model.vits.noise_scale = noiseless ? Self.noNoise : file.inference.noiseScale
                    config.model.vits.noise_scale_w = noiseless ? Self.noNoise : file.inference.noiseWidth
                    config.model.vits.length_scale = file.inference.lengthScale
                    config.model.num_threads = threads
                    config.model.provider = provider
                    config.max_num_sentences = 1
                    return engine.api.createOfflineTts(&config)
                }
            }
        }
        guard let created else {
            throw Problem(message: "sherpa-onnx cannot load the voice \(path) (its messages are in the log above)")
        }
        self.path = path
        self.file = file
        self.engine = engine
        tts = created
        sampleRate = Int(engine.api.sampleRate(created))
    }

    deinit {
        engine.api.destroyOfflineTts(tts)
    }

    /// The noise scale that stands for none: with 0 sherpa-onnx's audio still varied from run to
    /// run as with the voice's noise (0 does not reach the model); with 1e-6 the lengths are the
    /// same and the samples differ by a step or two.
    public static let noNoise: Float = 1e-6

    /// Synthesizes one sentence's phonemes (IPA scalars) at `speed` (1 is the voice's own rate).
    /// `keepGoing` is asked when the engine reports progress; false stops it. Returns the audio
    /// at ``sampleRate``, or nil when the engine failed or was stopped.
    public func synthesize(phonemes: [Int32], speed: Float, keepGoing: @escaping () -> Bool) -> [Float]? {
        guard !phonemes.isEmpty else { return [] }
        final class Context {
            let keepGoing: () -> Bool
            var stopped = false
            init(_ keepGoing: @escaping () -> Bool) { self.keepGoing = keepGoing }
        }
        let context = Context(keepGoing)
        var config = CSherpaOnnx_GenerationConfig()
        config.speed = speed
        config.silence_scale = 0
        var lengths: [Int32] = [Int32(phonemes.count)]
        let audio = phonemes.withUnsafeBufferPointer { codepoints in
            lengths.withUnsafeMutableBufferPointer { lengths in
                config.phoneme_codepoints = codepoints.baseAddress
                config.phoneme_codepoints_lens = UnsafePointer(lengths.baseAddress)
                config.phoneme_codepoints_num_sentences = 1
                return withExtendedLifetime(context) {
                    engine.api.generateWithConfig(
                        tts, "", &config,
                        { _, _, _, argument in
                            let context = Unmanaged<Context>.fromOpaque(argument!).takeUnretainedValue()
                            if context.keepGoing() { return 1 }
                            context.stopped = true
                            return 0
                        },
                        Unmanaged.passUnretained(context).toOpaque()
                    )
                }
            }
        }
        guard let audio else { return nil }
        defer { engine.api.destroyGeneratedAudio(audio) }
        if context.stopped { return nil }
        let count = Int(audio.pointee.n)
        guard count > 0, let samples = audio.pointee.samples else { return [] }
        return Array(UnsafeBufferPointer(start: samples, count: count))
    }
}
