// SPDX-License-Identifier: GPL-3.0-or-later

/// Where Piper voices are installed: the user's own directory, then the system's. A voice in
/// the user's directory hides one of the same name in the system's.
public struct PiperVoiceDirectories: Sendable, Hashable {
    /// The system's directory, where a package would put voices.
    public static let systemDefault = "/usr/share/announced/voices"
    /// The variable that moves the system's directory (tests point it at a folder of their own;
    /// empty means none).
    public static let systemVariable = "ANNOUNCED_SYSTEM_VOICES"

    /// The user's directory, where `announcectl voices install` puts voices: `$XDG_DATA_HOME/announced/voices`
    /// (`~/.local/share/announced/voices` when `XDG_DATA_HOME` is unset or not absolute); nil
    /// when neither it nor `HOME` is set.
    public var user: String?
    /// The system's directory, or nil for none.
    public var system: String?

    /// The directories for a process with `environment`.
    public init(environment: [String: String]) {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            user = data + "/announced/voices"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            user = (home == "/" ? "" : home) + "/.local/share/announced/voices"
        } else {
            user = nil
        }
        if let system = environment[Self.systemVariable] {
            self.system = system.isEmpty ? nil : system
        } else {
            system = Self.systemDefault
        }
    }

    /// Two given directories.
    public init(user: String?, system: String?) {
        self.user = user
        self.system = system
    }

    /// The directories looked in, the user's first.
    public var searchOrder: [String] { [user, system].compactMap { $0 } }
}
