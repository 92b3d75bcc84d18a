// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing

/// speech-dispatcher's own clients from Debian (spd-say, a libspeechd program), run against a test
/// daemon's SSIP socket.
enum SSIPClientProcess {
    /// `spd-say`, from the `speech-dispatcher` package; nil when it is not installed.
    static let spdSay = installedTool("spd-say")

    /// Why the spd-say tests are skipped when it is missing.
    static let spdSayMissing: Comment = "needs spd-say (apt-get install speech-dispatcher)"

    /// Starts `executable ARGUMENTS` with `environment` added to `daemon`'s SSIP client environment
    /// (SPEECHD_ADDRESS names its SSIP socket, SPEECHD_CMD=/bin/false).
    static func start(
        _ executable: String, _ arguments: [String], daemon: SSIPDaemon, environment: [String: String] = [:]
    ) throws -> AnnouncectlProcess {
        try AnnouncectlProcess(
            arguments, environment: daemon.clientEnvironment.merging(environment) { $1 },
            executable: URL(fileURLWithPath: executable)
        )
    }

    /// Runs `spd-say ARGUMENTS` against `daemon` to its end (killed after `timeout` seconds, a
    /// failure guard).
    static func spdSay(
        _ daemon: SSIPDaemon, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 60
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let tool = try start(try #require(spdSay), arguments, daemon: daemon, environment: environment)
        tool.finishInput()
        return tool.finish(timeout: timeout)
    }
}

/// A client program or SSIP conversation did not go as the test expects.
struct SSIPClientError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
