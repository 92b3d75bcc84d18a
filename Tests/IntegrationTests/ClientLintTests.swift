// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import Foundation
import TestSupport
import Testing

/// Posts `elements` as a new screen from the main actor and returns how it ended, once its
/// completion ran on the main queue (after every handler the daemon's earlier lines triggered).
@MainActor
private func postScreen(_ announcer: Announcer, _ elements: [Element]) async throws -> AnnouncementResult {
    try await withTimeout("the screen post") {
        await withCheckedContinuation { done in
            Task { @MainActor in announcer.screenChanged(elements: elements) { done.resume(returning: $0) } }
        }
    }
}

/// Collects lint reports on the main actor.
@MainActor
private final class Reports {
    var received: [String] = []
    var descriptions: [String] = []
    var onMainQueue: [Bool] = []
}

@Suite("AnnounceClient: lint")
struct ClientLintTests {
    let elements = [
        Element(id: "share", label: "Share", traits: [.button], hint: "Opens the sharing sheet."),
        Element(id: "save", label: "Save button", traits: [.button], hint: "saves"),
    ]

    @Test("lint: true sends lint in hello; findings reach onLint on the main queue")
    @MainActor
    func findingsReachTheHandler() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath, lint: true)
        let reports = Reports()
        announcer.onLint { report in
            reports.received.append("\(report.element) \(report.rule)")
            reports.descriptions.append(report.description)
            reports.onMainQueue.append(MainThread.isMainQueue)
        }
        #expect(try await postScreen(announcer, elements) == .spoken)
        #expect(reports.received == ["save label-has-type", "save hint-capitalized", "save hint-period"])
        #expect(reports.onMainQueue == [true, true, true])
        #expect(
            reports.descriptions.first?.hasPrefix(
                "save: label-has-type: the label \"Save button\" names the type \"button\"") == true)
    }

    @Test("without lint: no findings")
    @MainActor
    func noLintWithoutTheOption() async throws {
        let daemon = try await DaemonProcess.start()
        let announcer = Announcer(socketPath: daemon.socketPath)
        let reports = Reports()
        announcer.onLint { report in reports.received.append("\(report.element) \(report.rule)") }
        #expect(try await postScreen(announcer, elements) == .spoken)
        #expect(reports.received.isEmpty)
    }
}
