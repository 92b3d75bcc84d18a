// SPDX-License-Identifier: GPL-3.0-or-later
import Logging
import POSIXThreads
import ServiceLifecycle
import Testing

@testable import AnnounceDaemon

/// The order the daemon's group starts and stops its services in, with services of the test's own
/// in each slot of ``DaemonServiceGraph``.
@Suite(.timeLimit(.minutes(1)))
struct ServiceOrderTests {
    /// What the fake services did, in order, and a stream that tells the test of each start.
    final class Journal: Sendable {
        let entries = LockedValue<[String]>([])
        let starts: AsyncStream<String>
        let started: AsyncStream<String>.Continuation

        init() { (starts, started) = AsyncStream.makeStream() }

        func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    }

    /// A service that notes its start, runs until graceful shutdown (or ends at once, when it is
    /// `quitting`), and notes its stop.
    struct Recorded: Service {
        let name: String
        let journal: Journal
        var quitting = false

        func run() async {
            journal.record("start \(name)")
            journal.started.yield(name)
            if !quitting { try? await gracefulShutdown() }
            journal.record("stop \(name)")
        }
    }

    static func graph(_ journal: Journal, spiel: Bool, quitting: String? = nil) -> DaemonServiceGraph {
        func service(_ name: String) -> Recorded { Recorded(name: name, journal: journal, quitting: name == quitting) }
        return DaemonServiceGraph(
            speech: service("speech"), voices: service("voices"), trimmer: service("trimmer"),
            reload: service("reload"), screenReader: service("screen reader"),
            spiel: spiel ? service("spiel") : nil,
            frontEnds: [(service("json"), "front end json"), (service("ssip"), "front end ssip")],
            toolkit: service("toolkit"), dispatcher: service("dispatcher"))
    }

    /// Runs the graph's group until every service has started, then shuts it down (or lets the
    /// `quitting` service end it); returns the journal's entries.
    static func run(_ graph: DaemonServiceGraph, _ journal: Journal, shutDown: Bool) async throws -> [String] {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: graph.inOrder, logger: Logger(label: "test.order")))
        try await withThrowingDiscardingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            var started = 0
            for await _ in journal.starts {
                started += 1
                if started == graph.inOrder.count { break }
            }
            if shutDown { await group.triggerGracefulShutdown() }
        }
        return journal.entries.withLock { $0 }
    }

    @Test("the group names the services in the daemon's order, the Spiel provider only when it is on")
    func names() {
        let journal = Journal()
        #expect(
            Self.graph(journal, spiel: true).inOrder.map(\.serviceName) == [
                "speech", "voice catalog", "memory trimmer", "reload", "screen reader watch", "spiel provider",
                "front end json", "front end ssip", "front end atspi", "dispatcher",
            ])
        #expect(!Self.graph(journal, spiel: false).inOrder.map(\.serviceName).contains("spiel provider"))
    }

    @Test("shutdown stops the dispatcher first and speech last, one at a time, after every service started")
    func shutdownOrder() async throws {
        let journal = Journal()
        let entries = try await Self.run(Self.graph(journal, spiel: true), journal, shutDown: true)
        let stops = entries.filter { $0.hasPrefix("stop ") }
        #expect(
            stops == [
                "stop dispatcher", "stop toolkit", "stop ssip", "stop json", "stop spiel", "stop screen reader",
                "stop reload", "stop trimmer", "stop voices", "stop speech",
            ])
        // Every service had started before the first stop.
        #expect(entries.prefix(10).allSatisfy { $0.hasPrefix("start ") })
    }

    @Test("a service that ends on its own shuts the rest down in the same order")
    func serviceEndingEndsTheGroup() async throws {
        let journal = Journal()
        let entries = try await Self.run(
            Self.graph(journal, spiel: false, quitting: "reload"), journal, shutDown: false)
        let stops = entries.filter { $0.hasPrefix("stop ") && $0 != "stop reload" }
        #expect(
            stops == [
                "stop dispatcher", "stop toolkit", "stop ssip", "stop json", "stop screen reader", "stop trimmer",
                "stop voices", "stop speech",
            ])
    }
}
