// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
import CEspeakNG
import EngineSandbox
import EspeakHelperWire
import Glibc

// announced-espeak: the daemon's espeak-ng, in a process of its own.
//
// Debian's espeak-ng 1.51 aborts the process on some texts (100 times "s'" overflows a buffer in
// TranslateWord3; fixed upstream in 2026), so the daemon never calls espeak-ng itself: it starts
// this helper, sends it one utterance at a time on standard input, and reads the audio and word
// events back on standard output (EspeakHelperWire). When espeak-ng crashes, only this process
// dies; the daemon finishes that post `error` and starts a new helper.
//
// espeak-ng runs in synchronous mode with 60 ms buffers; the callback returns 1 to stop when the
// daemon asks (`abort`). The pipe to the daemon is small, so synthesis runs at most a few hundred
// milliseconds ahead of playback.
//
// Start-up: espeak-ng's data directory is looked up, then the sandbox is entered around espeak-ng's
// initialization (EspeakSandbox): Landlock before it, because espeak-ng 1.51 starts a thread there
// (its asynchronous mode's, idle in synchronous mode, started whatever the mode) and Landlock binds
// only threads started after it; the seccomp filter after it, on both threads. Initialization opens
// no audio device (CEspeakNoAudioDevice), so libpulse is never called.

signal(SIGPIPE, SIG_IGN)
// A long text (up to `max_text_chars`, a chapter) arrives in one frame: with a fixed mmap
// threshold its buffers are mapped and unmapped whole, so the memory goes back once it is spoken
// (glibc would otherwise raise the threshold past them and keep them in the heap).
_ = CAnnounceLinux_set_malloc_mmap_threshold(128 << 10)
nonisolated(unsafe) let input = FrameChannel(fd: STDIN_FILENO)
nonisolated(unsafe) let output = FrameChannel(fd: STDOUT_FILENO)

// espeak-ng's initialization sets LC_CTYPE to C.UTF-8 for its wide-character functions: loaded
// here, before Landlock, the locale needs no file then (glibc keeps a locale it has loaded).
setlocale(LC_CTYPE, "C.UTF-8")
// The data directory (ESPEAK_DATA_PATH, or where espeak-ng was built to look), for the sandbox.
espeak_ng_InitializePath(nil)

/// What espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 60, nil, espeakINITIALIZE_DONT_EXIT) did, in
/// its two steps: load the phoneme data, then the 60 ms output buffer of synchronous mode.
func initializeEspeak() {
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
        output.write(HelperMessage.initializationFailed(code: Int32(bitPattern: status.rawValue)).frame)
        exit(1)
    }
}

// From here on the helper reads only espeak-ng's data and writes only to its pipes (EspeakSandbox).
var voices: [HelperVoice] = []
EspeakSandbox.enter(reportingTo: output) {
    initializeEspeak()
    // Before the seccomp filter: espeak_ListVoices sorts with qsort, which asks for the memory size (sysinfo).
    voices = EspeakVoices.list()
}

guard output.write(HelperMessage.ready(sampleRate: espeak_ng_GetSampleRate(), voices: voices).frame) else { exit(0) }

/// Set by the callback when the daemon asked to stop, or is gone.
nonisolated(unsafe) var stopRequested = false

espeak_SetSynthCallback { samples, count, events in
    if !stopRequested, input.hasInput {
        // Between utterances the daemon sends nothing but `abort`, so anything here stops this one.
        stopRequested = true
        if let frame = input.readFrame() {
            if (try? HelperRequest(tag: frame.tag, payload: frame.payload)) != .abort { exit(2) }
        } else {
            exit(0)
        }
    }
    if stopRequested { return 1 }
    if var event = events {
        while event.pointee.type != espeakEVENT_LIST_TERMINATED {
            let current = event.pointee
            switch current.type {
            case espeakEVENT_WORD:
                output.write(
                    HelperMessage.word(sample: UInt32(clamping: current.sample), textPosition: current.text_position, length: current.length).frame
                )
            case espeakEVENT_MARK:
                if let name = current.id.name {
                    output.write(HelperMessage.mark(sample: UInt32(clamping: current.sample), name: String(cString: name)).frame)
                }
            default:
                break
            }
            event += 1
        }
    }
    if let samples, count > 0 {
        guard output.write(HelperMessage.samplesFrame(UnsafeBufferPointer(start: samples, count: Int(count)))) else { exit(0) }
    }
    return 0
}

var currentVoice: String?
while let frame = input.readFrame() {
    let request: HelperRequest
    do {
        request = try HelperRequest(tag: frame.tag, payload: frame.payload)
    } catch {
        exit(2)
    }
    guard case .synthesize(let utterance) = request else { continue }
    #if DEBUG
    if let answer = SandboxProbe.answer(to: utterance.text) {
        output.writeProbeAnswer(answer)
        continue
    }
    #endif
    if utterance.voice != currentVoice {
        currentVoice = nil
        guard !utterance.voice.isEmpty, espeak_SetVoiceByName(utterance.voice) == EE_OK else {
            output.write(HelperMessage.voiceUnknown.frame)
            output.write(HelperMessage.done(status: 0).frame)
            continue
        }
        currentVoice = utterance.voice
    }
    output.write(HelperMessage.voiceSelected.frame)
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
    stopRequested = false
    let flags = UInt32(espeakCHARS_UTF8) | (utterance.ssml ? UInt32(espeakSSML) : 0)
    let status = utterance.text.withCString { text in
        espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, flags, nil, nil)
    }
    let aborted = stopRequested
    guard output.write(HelperMessage.done(status: aborted || status == EE_OK ? 0 : Int32(status.rawValue)).frame) else { exit(0) }
}
exit(0)
