// SPDX-License-Identifier: GPL-3.0-or-later
import HelperRuntime

// announced-espeak: the daemon's espeak-ng, in a process of its own (HelperRuntime: its pipes,
// frame loop, abort and sandbox).
//
// Debian's espeak-ng 1.51 aborts the process on some texts (100 times "s'" overflows a buffer in
// TranslateWord3), so the daemon never calls espeak-ng itself: when espeak-ng crashes, only this
// process dies; the daemon finishes that post `error` and starts a new helper.
//
// espeak-ng runs in synchronous mode with 60 ms buffers; the callback returns 1 to stop when the
// daemon asks (`abort`). The pipe to the daemon is small, so synthesis runs at most a few hundred
// milliseconds ahead of playback.
//
// Start-up: espeak-ng's data directory is looked up, then the sandbox is entered around espeak-ng's
// initialization: Landlock before it, because espeak-ng 1.51 starts a thread there (its
// asynchronous mode's, idle in synchronous mode, started whatever the mode) and Landlock binds
// only threads started after it; the seccomp filter after it, on both threads. Initialization opens
// no audio device (CEspeakNoAudioDevice), so libpulse is never called. In debug builds
// ANNOUNCED_ESPEAK_UNSANDBOXED set runs it without the sandbox (the tests' control experiment).
HelperRuntime.run(name: "announced-espeak") { EspeakSynthesizer(runtime: $0) }
