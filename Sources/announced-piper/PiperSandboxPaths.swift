// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// What the helper's sandbox leaves readable besides the engine's library directory and
/// espeak-ng's data: the voice directories (`$XDG_DATA_HOME/announced/voices`, default
/// `~/.local/share/announced/voices`; `/usr/share/announced/voices`; and the colon-separated
/// `ANNOUNCED_PIPER_VOICE_DIRS`, for tests and for voices kept elsewhere), and the processor's
/// description. Nothing writable; no socket, no exec, no privileges. Beyond announced-espeak's
/// allowlist it may start threads (clone with thread flags only), make memory files (the prepared
/// model, PreparedModel) and ask what ONNX Runtime asks (sysinfo, stat, fcntl's status flags).
/// ONNX Runtime reads the processor's description (cpuinfo: `/proc/cpuinfo`,
/// `/sys/devices/system/cpu`), which stays readable; its look for accelerators under /sys/bus/pci
/// is refused, and it goes on without.
enum PiperSandboxPaths {
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
}
