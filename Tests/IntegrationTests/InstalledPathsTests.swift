// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// What `announced` tells an installed user to read: paths that exist after `make install` or
/// the Debian package (a man page, the installed sample configuration), never the source tree's.
@Suite("Daemon: help and errors point at installed files", .daemonTimeLimit, .onBlockingThreads)
struct InstalledPathsTests {
    @Test("--help names the protocol's man page and the installed sample, no path in the source tree")
    func help() throws {
        let (status, text, _) = try AnnouncectlProcess.run(["--help"], executable: DaemonProcess.executable)
        #expect(status == 0)
        // The help wraps lines; compare the words.
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("announced-protocol(7)"), "\(text)")
        #expect(words.contains("/usr/share/announced/announced.json"), "\(text)")
        #expect(!text.contains("Sources/") && !text.contains("Config/"), "\(text)")
    }

    @Test("a --config file that does not exist: the error names the installed sample")
    func missingConfigFile() throws {
        let daemon = try DaemonProcess(arguments: ["--config", "/nonexistent/announced.json"], waitForReady: false)
        #expect(daemon.waitForExit() == 1)
        let stderr = daemon.stderrText()
        #expect(stderr.contains("the sample with every key (/usr/share/announced/announced.json"), "stderr: \(stderr)")
        #expect(!stderr.contains("Config/"), "stderr: \(stderr)")
    }
}
