// SPDX-License-Identifier: GPL-3.0-or-later
import HelperRuntime

// announced-piper: Piper voices (VITS models on ONNX Runtime, through sherpa-onnx's C API), in a
// sandboxed process of its own, on the same wire and runtime as announced-espeak (EngineWire,
// HelperRuntime).
//
// Start-up (PiperSynthesizer): the engine's library is loaded (SherpaOnnxLibrary:
// ANNOUNCED_PIPER_LIBRARY_DIR, beside the executable, or /usr/lib/announced/piper), the sandbox is
// entered (PiperSandboxPaths), espeak-ng is initialized for phonemes only, and `ready` announces
// 22,050 Hz and no voices. Voices are named by path: `prepare` loads one ahead of use,
// `synthesize` loads it when it is not the current one (`voiceFailed` and `done` when it cannot be).
//
// Text is phonemized in-process by espeak-ng (IPA, the voice's espeak voice), a clause at a time,
// and synthesized a sentence at a time (UtteranceSynthesis); `abort` is read between chunks and in
// the engine's progress callback, which sherpa-onnx calls once a chunk's audio is made (ONNX
// Runtime's run itself cannot be interrupted): the helper stops within one chunk's synthesis, at
// most a few hundred milliseconds, while the daemon has already dropped the audio.
//
// How the daemon starts it: no arguments; standard input and output are its two pipes (frames of
// EngineWire), standard error the daemon's log; no other descriptor. Its environment as
// announced-espeak's (SWIFT_BACKTRACE=enable=no), with HOME or XDG_DATA_HOME for the user's voice
// directory. A voice is named by the absolute path of its .onnx, which must lie in a voice
// directory (PiperSandboxPaths), else it fails with "Permission denied". Loading a voice (`prepare`,
// or the first `synthesize` naming it) sends nothing for seconds: the daemon's silence limit waits
// longer for `voicePrepared` (the engine's load timeout). Unloading a voice is ending the helper
// (its memory goes back to the system whole).
//
// Rate is a speed factor (words per minute / 175, as espeak-ng's normal rate), volume a gain
// (volume / 100). Pitch is not supported by Piper voices: the request's pitch is ignored.
// Punctuation modes are not spoken (the voice hears punctuation as pauses and intonation).
//
// Environment: ANNOUNCED_PIPER_LIBRARY_DIR (SherpaOnnxLibrary), ANNOUNCED_PIPER_VOICE_DIRS
// (PiperSandboxPaths), ANNOUNCED_PIPER_THREADS and ANNOUNCED_PIPER_NOISE=0 (PiperSynthesizer:
// repeatable audio, for tests), and in debug builds ANNOUNCED_PIPER_UNSANDBOXED.
//
// Exit statuses: HelperRuntime's; 1 when the engine or espeak-ng cannot be loaded (after
// `initializationFailed`: 1 for the engine, 2 for espeak-ng; the reason is on standard error).
HelperRuntime.run(name: "announced-piper") { PiperSynthesizer(runtime: $0) }
