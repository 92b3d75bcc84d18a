// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Foundation

/// A test daemon that serves SSIP (speech-dispatcher's protocol) on a socket of its own, beside
/// its native socket, and the environment under which a speech-dispatcher client reaches it.
final class SSIPDaemon {
    /// The daemon (native socket, wav output, stderr).
    let daemon: DaemonProcess
    private let place = SSIPSocketPlace()
    /// Where it serves SSIP.
    var ssipPath: String { place.path }

    /// Starts `announced` with `ANNOUNCED_SSIP_SOCKET` set to a fresh path (and `environment`
    /// added) and waits for READY=1 (sent once both sockets listen).
    init(arguments: [String] = [], audio: String? = nil, environment: [String: String] = [:]) throws {
        do {
            daemon = try DaemonProcess(
                arguments: arguments, audio: audio, environment: place.environment.merging(environment) { $1 })
        } catch {
            place.remove()
            throw error
        }
    }

    deinit { place.remove() }

    /// What a speech-dispatcher client needs to reach this daemon, and never a real
    /// speech-dispatcher: autospawn runs `/bin/false`, which fails.
    var clientEnvironment: [String: String] {
        ["SPEECHD_ADDRESS": "unix_socket:\(ssipPath)", "SPEECHD_CMD": "/bin/false"]
    }

    /// A raw SSIP connection.
    func connectSSIP() throws -> RawSSIPClient { try RawSSIPClient(path: ssipPath) }
}

extension LineClient {
    /// Waits for the speech subscription's `state` line (`started`, `finished`, `dropped`) of
    /// post `seq` (an SSIP message id is its post's seq).
    @discardableResult
    func waitForSpeech(_ state: String, seq: Int, timeout: Double = 30) -> JSONValue? {
        waitFor(timeout: timeout) {
            $0.event == "speech" && $0["state"]?.stringValue == state && $0["seq"] == .integer(Int64(seq))
        }
    }

    /// The speech subscription's lines about posts so far (their language runs' lines aside), as
    /// `state seq` (`started 3`), in order.
    var speechStates: [String] {
        received.compactMap { line in
            guard line.event == "speech", let state = line["state"]?.stringValue, state != "run",
                case .integer(let seq)? = line["seq"]
            else { return nil }
            return "\(state) \(seq)"
        }
    }

    /// True when the speech subscription saw `first` (`finished 3`) before `second` (`started 4`).
    func speechState(_ first: String, precedes second: String) -> Bool {
        let states = speechStates
        guard let a = states.firstIndex(of: first), let b = states.firstIndex(of: second) else { return false }
        return a < b
    }
}
