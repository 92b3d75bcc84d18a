// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The long-lived children tests start (PipeWire, buses, socket-activated daemons) hold nothing
/// of the test process: a client's standard input pipe they inherited would never reach its end
/// when the test closes it, and the client would wait for input until it is killed.
@Suite("SpawnedProcess: a child inherits no descriptor of the test process", .onBlockingThreads)
struct SpawnedProcessTests {
    @Test("a Foundation Pipe open while a child starts is not among the child's descriptors")
    func inheritsNoPipe() throws {
        expectBlockingAllowed("starting sleep")
        let pipe = Pipe()
        let child = try SpawnedProcess(executable: "/bin/sleep", arguments: ["30"], environment: [:], output: .pipe)
        defer {
            child.signal(SIGKILL)
            _ = child.waitForExit()
        }
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").sorted()
        let targets = descriptors.map {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.pid)/fd/\($0)")) ?? "?"
        }
        #expect(
            descriptors == ["0", "1", "2"],
            "the child's descriptors: \(zip(descriptors, targets).map { "\($0) -> \($1)" })")
        withExtendedLifetime(pipe) {}
    }

    @Test("a client's standard input reaches its end when the test closes it, though a child was started while it ran")
    func clientInputEnds() throws {
        let client = try AnnouncectlProcess([], executable: URL(fileURLWithPath: "/bin/cat"))
        let child = try SpawnedProcess(
            executable: "/bin/sleep", arguments: ["30"], environment: [:], output: .discarded)
        defer {
            child.signal(SIGKILL)
            _ = child.waitForExit()
        }
        client.finishInput("ends\n")
        let ended = client.finish(timeout: 10)
        #expect(ended.status == 0 && ended.stdout == "ends\n", "cat was killed waiting for its input to end: \(ended)")
    }
}
