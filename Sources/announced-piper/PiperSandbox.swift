// SPDX-License-Identifier: GPL-3.0-or-later
import EngineSandbox
import EspeakHelperWire
import Glibc

/// The helper's sandbox (EngineSandbox), entered once the engine's library is loaded and before
/// any thread exists: Landlock binds only the thread that applies it and the threads it starts
/// later, so espeak-ng (whose initialization starts a thread) is initialized after it, and ONNX
/// Runtime starts its threads when a voice loads.
///
/// Readable: the engine's library directory, espeak-ng's data, and the voice directories
/// (`$XDG_DATA_HOME/announced/voices`, default `~/.local/share/announced/voices`;
/// `/usr/share/announced/voices`; and the colon-separated `ANNOUNCED_PIPER_VOICE_DIRS`, for tests
/// and for voices kept elsewhere). Nothing writable; no socket, no exec, no privileges. Beyond
/// announced-espeak's allowlist it may start threads (clone with thread flags only), make
/// memory files (the prepared model, PreparedModel) and ask what ONNX Runtime asks (sysinfo,
/// stat, fcntl's status flags). ONNX Runtime reads the processor's description (cpuinfo:
/// `/proc/cpuinfo`, `/sys/devices/system/cpu`), which stays readable; its look for accelerators
/// under /sys/bus/pci is refused, and it goes on without.
enum PiperSandbox {
    #if DEBUG
    /// Debug builds only: set, the helper runs without its sandbox (the tests' control experiment).
    static let switchedOffVariable = "ANNOUNCED_PIPER_UNSANDBOXED"
    #endif
    /// More directories of voices, colon-separated.
    static let voiceDirectoriesVariable = "ANNOUNCED_PIPER_VOICE_DIRS"

    /// What ONNX Runtime's cpuinfo reads to learn the processor's cores and caches.
    static let processorDescription = ["/proc/cpuinfo", "/sys/devices/system/cpu"]

    /// The directories voices are read from.
    static func voiceDirectories() -> [String] {
        var directories: [String] = []
        if let data = getenv("XDG_DATA_HOME"), data.pointee == UInt8(ascii: "/") {
            directories.append(String(cString: data) + "/announced/voices")
        } else if let home = getenv("HOME"), home.pointee != 0 {
            directories.append(String(cString: home) + "/.local/share/announced/voices")
        }
        directories.append("/usr/share/announced/voices")
        if let extra = getenv(voiceDirectoriesVariable) {
            directories += String(cString: extra).split(separator: ":").map(String.init)
        }
        return directories
    }

    /// Enters the sandbox; when it cannot be set up, says why on standard error and exits with
    /// status 3 rather than read a text unconfined.
    static func enter(engineDirectory: String, espeakData: String?, reportingTo output: FrameChannel) {
        #if DEBUG
        if getenv(switchedOffVariable) != nil { return }
        #endif
        let sandbox = EngineSandbox(
            readablePaths: [engineDirectory] + (espeakData.map { [$0] } ?? []) + voiceDirectories()
                + processorDescription,
            violationReport: ViolationReport(fd: output.fd) { HelperMessage.sandboxViolation(systemCall: $0).frame },
            allowances: [.threads, .memoryFiles, .runtimeQueries]
        )
        do {
            if let warning = try sandbox.enter().warning {
                say("warning: \(warning)")
            }
        } catch {
            say(error.message)
            exit(3)
        }
    }
}
