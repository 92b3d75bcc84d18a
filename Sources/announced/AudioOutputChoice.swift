import ArgumentParser

/// The `--audio` values: `auto`, `pulse`, `alsa`, `null` or `wav:DIR`.
enum AudioOutputChoice: Equatable, ExpressibleByArgument, CustomStringConvertible {
    case auto
    case pulse
    case alsa
    case null
    case wav(directory: String)

    init?(argument: String) {
        switch argument {
        case "auto": self = .auto
        case "pulse": self = .pulse
        case "alsa": self = .alsa
        case "null": self = .null
        default:
            guard argument.hasPrefix("wav:"), argument.count > 4 else { return nil }
            self = .wav(directory: String(argument.dropFirst(4)))
        }
    }

    var description: String {
        switch self {
        case .auto: return "auto"
        case .pulse: return "pulse"
        case .alsa: return "alsa"
        case .null: return "null"
        case .wav(let directory): return "wav:\(directory)"
        }
    }

    static var allValueStrings: [String] { ["auto", "pulse", "alsa", "null", "wav:DIR"] }
}
