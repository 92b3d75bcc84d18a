// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser

/// The `--audio` values: `auto`, `pulse`, `alsa`, `alsa:DEVICE`, `null` or `wav:DIR`.
enum AudioOutputChoice: Equatable, ExpressibleByArgument, CustomStringConvertible {
    case auto
    case pulse
    /// ALSA on the `default` device (or the one the configuration names).
    case alsa
    /// ALSA on a named device, e.g. `alsa:hw:1,0`.
    case alsaDevice(String)
    case null
    case wav(directory: String)

    init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "pulse": self = .pulse
        case "alsa": self = .alsa
        case "null": self = .null
        default:
            if argument.hasPrefix("alsa:"), argument.count > 5 {
                self = .alsaDevice(String(argument.dropFirst(5)))
                return
            }
            guard argument.hasPrefix("wav:"), argument.count > 4 else { return nil }
            self = .wav(directory: String(argument.dropFirst(4)))
        }
    }

    var description: String {
        switch self {
        case .auto: return "auto"
        case .pulse: return "pulse"
        case .alsa: return "alsa"
        case .alsaDevice(let device): return "alsa:\(device)"
        case .null: return "null"
        case .wav(let directory): return "wav:\(directory)"
        }
    }

    /// The value as the settings know it: `alsa:DEVICE` is the `alsa` output on a named device,
    /// which the daemon takes from the flag itself.
    var settingValue: String {
        if case .alsaDevice = self { return "alsa" }
        return description
    }

    static var allValueStrings: [String] { ["auto", "pulse", "alsa", "alsa:DEVICE", "null", "wav:DIR"] }
}
