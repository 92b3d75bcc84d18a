// SPDX-License-Identifier: GPL-3.0-or-later
import CEspeakNG
import EngineWire
import Glibc
import HelperRuntime

/// espeak-ng as the helper's engine.
final class EspeakSynthesizer: HelperEngine {
    let runtime: HelperRuntime
    let sampleRate: Int32
    let voices: [EngineVoice]
    /// The voice selected last, kept while the requests name it.
    private var currentVoice: String?

    init(runtime: HelperRuntime) {
        self.runtime = runtime
        // espeak-ng's initialization sets LC_CTYPE to C.UTF-8 for its wide-character functions:
        // loaded here, before Landlock, the locale needs no file then (glibc keeps a locale it has loaded).
        setlocale(LC_CTYPE, "C.UTF-8")
        // The data directory (ESPEAK_DATA_PATH, or where espeak-ng was built to look), for the sandbox.
        espeak_ng_InitializePath(nil)
        var voices: [EngineVoice] = []
        runtime.enterSandbox(reading: Self.dataDirectory(), switchedOffBy: "ANNOUNCED_ESPEAK_UNSANDBOXED") {
            Self.initialize(runtime)
            // Before the seccomp filter: espeak_ListVoices sorts with qsort, which asks for the memory size (sysinfo).
            voices = EspeakVoices.list()
        }
        self.voices = voices
        sampleRate = espeak_ng_GetSampleRate()
        espeak_SetSynthCallback { samples, count, events in
            // A C callback captures nothing: the synthesizer is espeak_Synth's user data, in every event list.
            guard let events, let synthesizer = EspeakSynthesizer.userData(of: events) else { return 1 }
            return synthesizer.received(samples, count: Int(count), events: events)
        }
    }

    /// espeak-ng's data directory as the library found it: all the sandbox leaves readable.
    private static func dataDirectory() -> [String] {
        var dataPath: UnsafePointer<CChar>?
        _ = espeak_Info(&dataPath)
        return dataPath.map { [String(cString: $0)] } ?? []
    }

    /// What espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 60, nil, espeakINITIALIZE_DONT_EXIT) did, in
    /// its two steps: load the phoneme data, then the 60 ms output buffer of synchronous mode.
    private static func initialize(_ runtime: HelperRuntime) {
        var context: espeak_ng_ERROR_CONTEXT?
        var status = espeak_ng_Initialize(&context)
        if status == ENS_OK {
            status = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 60, nil)
        }
        guard status == ENS_OK else {
            // Why, on standard error (the daemon's log), as espeak_Initialize printed it.
            let log = fdopen(STDERR_FILENO, "w")
            espeak_ng_PrintStatusCodeMessage(status, log, context)
            fflush(log)
            espeak_ng_ClearErrorContext(&context)
            runtime.failInitialization(code: Int32(bitPattern: status.rawValue))
        }
    }

    func selectVoice(_ voice: String) -> VoiceSelection {
        if voice == currentVoice { return .selected }
        currentVoice = nil
        guard !voice.isEmpty, espeak_SetVoiceByName(voice) == EE_OK else { return .unknown }
        currentVoice = voice
        return .selected
    }

    func speak(_ utterance: SynthesisRequest) -> Int32 {
        espeak_SetParameter(espeakRATE, utterance.rate, 0)
        espeak_SetParameter(espeakPITCH, utterance.pitch, 0)
        espeak_SetParameter(espeakVOLUME, utterance.volume, 0)
        switch utterance.punctuation {
        case .none:
            espeak_SetParameter(espeakPUNCTUATION, Int32(espeakPUNCT_NONE.rawValue), 0)
        case .all:
            espeak_SetParameter(espeakPUNCTUATION, Int32(espeakPUNCT_ALL.rawValue), 0)
        case .some:
            var list = utterance.punctuationList.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
            list.append(0)
            list.withUnsafeBufferPointer { _ = espeak_SetPunctuationList($0.baseAddress) }
            espeak_SetParameter(espeakPUNCTUATION, Int32(espeakPUNCT_SOME.rawValue), 0)
        }
        let flags = UInt32(espeakCHARS_UTF8) | (utterance.ssml ? UInt32(espeakSSML) : 0)
        let userData = Unmanaged.passUnretained(self).toOpaque()
        let status = utterance.text.withCString { text in
            espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, flags, nil, userData)
        }
        return status == EE_OK ? 0 : Int32(status.rawValue)
    }

    /// The user data espeak_Synth was given, which espeak-ng puts in every event list's last entry.
    private static func userData(of events: UnsafeMutablePointer<espeak_EVENT>) -> EspeakSynthesizer? {
        var event = events
        while event.pointee.type != espeakEVENT_LIST_TERMINATED { event += 1 }
        return event.pointee.user_data.map { Unmanaged<EspeakSynthesizer>.fromOpaque($0).takeUnretainedValue() }
    }

    /// espeak-ng's callback: sends the events and samples, or returns 1 to stop once the daemon
    /// asked to.
    private func received(
        _ samples: UnsafeMutablePointer<Int16>?, count: Int, events: UnsafeMutablePointer<espeak_EVENT>
    ) -> Int32 {
        if runtime.shouldStop() { return 1 }
        var event = events
        while event.pointee.type != espeakEVENT_LIST_TERMINATED {
            let current = event.pointee
            switch current.type {
            case espeakEVENT_WORD:
                runtime.send(
                    .word(
                        sample: UInt32(clamping: current.sample), textPosition: current.text_position,
                        length: current.length))
            case espeakEVENT_MARK:
                if let name = current.id.name {
                    runtime.send(.mark(sample: UInt32(clamping: current.sample), name: String(cString: name)))
                }
            default:
                break
            }
            event += 1
        }
        if let samples, count > 0 {
            guard runtime.send(samples: UnsafeBufferPointer(start: samples, count: count)) else { exit(0) }
        }
        return 0
    }
}
