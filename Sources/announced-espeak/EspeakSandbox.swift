// SPDX-License-Identifier: GPL-3.0-or-later
import CEspeakNG
import EngineSandbox
import EspeakHelperWire
import Glibc

/// The helper's sandbox (EngineSandbox), entered around espeak-ng's initialization: from then on
/// it reads only espeak-ng's data directory (dictionaries, phoneme tables, voices), writes only to
/// its pipes and standard error, and opens no socket, runs no program, gains no privileges, on
/// every thread, espeak-ng's own too. A refused system call ends the helper with SIGSYS after a
/// `sandboxViolation` message naming it.
enum EspeakSandbox {
    #if DEBUG
    /// Debug builds only: set, the helper runs without its sandbox (the tests' control experiment).
    static let switchedOffVariable = "ANNOUNCED_ESPEAK_UNSANDBOXED"
    #endif

    /// Enters the sandbox around `initialize`, espeak-ng's initialization, which starts a thread
    /// (EngineSandbox.enter(around:)): Landlock before it, the seccomp filter after. When the
    /// sandbox cannot be set up, says why on standard error and exits with status 3 rather than
    /// read a text unconfined. Call it after espeak_ng_InitializePath.
    static func enter(reportingTo output: FrameChannel, around initialize: () -> Void) {
        #if DEBUG
        if getenv(switchedOffVariable) != nil {
            initialize()
            return
        }
        #endif
        // espeak-ng's data directory as the library found it (ESPEAK_DATA_PATH, or where it was built to look).
        var dataPath: UnsafePointer<CChar>?
        _ = espeak_Info(&dataPath)
        let sandbox = EngineSandbox(
            readablePaths: dataPath.map { [String(cString: $0)] } ?? [],
            violationReport: ViolationReport(fd: output.fd) { HelperMessage.sandboxViolation(systemCall: $0).frame }
        )
        do {
            if let warning = try sandbox.enter(around: initialize).warning {
                say("announced-espeak: warning: \(warning)")
            }
        } catch {
            say("announced-espeak: \(error.message)")
            exit(3)
        }
    }

    /// Writes a line to standard error (the daemon's log).
    private static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
