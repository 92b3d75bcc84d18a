// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import POSIXThreads
import TestSupport
import Testing

/// What one SSIP storm connection queued and heard.
struct SSIPStormOutcome: Sendable {
    var clientID = -1
    /// The message ids from `225-<id>`, in order.
    var messageIDs: [Int] = []
    /// What queued each message (for the failure report).
    var queuedBy: [Int: String] = [:]
    /// Replies that were not what the command should get.
    var wrongReplies: [String] = []
}

/// The events storm connection `index` enables: none on the first, only END on the second (they
/// must get nothing else), all on the others.
func stormNotifications(_ index: Int) -> [String] {
    switch index {
    case 0: []
    case 1: ["end"]
    default: ["all"]
    }
}

/// One SSIP storm connection: names itself, enables its events, then sends `count` commands at
/// random (SPEAK at random priorities, CHAR, KEY, SOUND_ICON, blocks, CANCEL and STOP of its own
/// or every connection's messages, PAUSE with RESUME, settings and lists), each waiting for its
/// reply as speech-dispatcher's clients do.
func ssipStorm(_ client: RawSSIPClient, index: Int, seed: UInt64, count: Int) throws -> SSIPStormOutcome {
    var random = SplitMix64(state: seed)
    var outcome = SSIPStormOutcome()
    func command(_ line: String) throws -> SSIPBlock {
        guard let reply = client.command(line) else { throw SSIPClientError("no reply to \(line)") }
        return reply
    }
    func speak(_ text: String) throws -> Int {
        let (_, queued, id) = client.speak(text)
        guard let id else { throw SSIPClientError("SPEAK \(text) answered \(queued?.description ?? "nothing")") }
        return id
    }
    func expect(_ line: String, _ code: Int) throws {
        let reply = try command(line)
        if reply.code != code { outcome.wrongReplies.append("\(line) → \(reply)") }
    }
    func queue(_ line: String) throws {
        let reply = try command(line)
        if reply.code == 225, let id = reply.data.first.flatMap({ Int($0) }) {
            outcome.messageIDs.append(id)
            outcome.queuedBy[id] = line
        } else {
            outcome.wrongReplies.append("\(line) → \(reply)")
        }
    }
    try expect(#"SET SELF CLIENT_NAME "storm:ssip:\#(index)""#, 208)
    for type in stormNotifications(index) { try expect("SET SELF NOTIFICATION \(type) on", 220) }
    outcome.clientID = try command("HISTORY GET CLIENT_ID").data.first.flatMap { Int($0) } ?? -1
    let priorities = ["important", "message", "text", "notification", "progress"]
    for step in 0..<count {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<45:
            let priority = priorities.randomElement(using: &random)!
            try expect("SET SELF PRIORITY \(priority)", 202)
            let id = try speak("storm \(index) message \(step)")
            outcome.messageIDs.append(id)
            outcome.queuedBy[id] = "SPEAK at \(priority)"
        case 45..<52:
            try queue("CHAR \(["a", "Z", "space", "7"].randomElement(using: &random)!)")
        case 52..<56:
            try queue("KEY \(["shift_a", "control_alt_delete", "kp-enter"].randomElement(using: &random)!)")
        case 56..<59:
            try queue("SOUND_ICON \(["boundary", "no-such-icon"].randomElement(using: &random)!)")
        case 59..<64:
            try expect("BLOCK BEGIN", 260)
            for part in ["one", "two"] {
                let id = try speak("block \(step) \(part)")
                outcome.messageIDs.append(id)
                outcome.queuedBy[id] = "SPEAK in a block"
            }
            try expect("BLOCK END", 261)
        case 64..<74:
            try expect("CANCEL self", 213)
        case 74..<77:
            try expect("CANCEL all", 213)
        case 77..<82:
            try expect(Bool.random(using: &random) ? "STOP self" : "STOP all", 210)
        case 82..<85:
            try expect("PAUSE self", 211)
            try expect("RESUME self", 212)
        case 85..<92:
            try expect("SET SELF RATE \(Int.random(in: -100...100, using: &random))", 203)
        default:
            let (line, code) = [("GET RATE", 251), ("LIST VOICES", 249), ("LIST OUTPUT_MODULES", 250)].randomElement(
                using: &random)!
            try expect(line, code)
        }
    }
    return outcome
}

@Suite("Storm: SSIP and native clients at once, nothing lost", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct SSIPStormTests {
    @Test(
        "every SSIP message gets exactly one 702 or 703 and every native post one terminal line; status counts the SSIP clients",
        arguments: [300, 400, 500] as [UInt64]
    )
    func mixedStorm(seed: UInt64) throws {
        let ssip = try SSIPDaemon(audio: "null")
        let daemon = ssip.daemon
        let ssipConnections = 8
        let perConnection = 60

        // Native connections post random ops at random priorities (answers are read afterwards).
        var natives: [(client: LineClient, lines: [String], posts: [Int], last: Int)] = []
        for index in 0..<4 {
            let (lines, posts, last) = stormLines(seed: seed + 50 + UInt64(index), count: 120)
            natives.append((try daemon.connect(), lines, posts, last))
        }
        let ssipClients = try (0..<ssipConnections).map { _ in try ssip.connectSSIP() }

        // All at once, each connection on its own thread: the SSIP ones command by command, the
        // native ones in small writes.
        let outcomes = LockedValue<[Int: Result<SSIPStormOutcome, SSIPClientError>]>([:])
        let sending = ssipClients.map { SendableBox($0) }
        let posting = natives.map { SendableBox($0.client) }
        let nativeLines = natives.map(\.lines)
        DispatchQueue.concurrentPerform(iterations: ssipConnections + natives.count) { index in
            guard index < ssipConnections else {
                let native = index - ssipConnections
                for start in stride(from: 0, to: nativeLines[native].count, by: 8) {
                    posting[native].value.send(
                        contentsOf: Array(nativeLines[native][start..<min(start + 8, nativeLines[native].count)]))
                }
                return
            }
            let result: Result<SSIPStormOutcome, SSIPClientError>
            do {
                result = .success(
                    try ssipStorm(sending[index].value, index: index, seed: seed + UInt64(index), count: perConnection))
            } catch {
                result = .failure(SSIPClientError("connection \(index): \(error)"))
            }
            outcomes.withLock { $0[index] = result }
        }

        // While the SSIP connections are open, status counts them (and the control one).
        let control = try ssip.connectSSIP()
        #expect(control.command(#"SET SELF CLIENT_NAME "storm:ssip:control""#)?.code == 208)
        for native in natives {
            try #require(native.client.waitFor { $0["id"] == .integer(Int64(native.last)) } != nil)
        }
        let watcher = try daemon.connect()
        watcher.send(#"{"op":"status","id":1}"#)
        let status = try #require(watcher.waitFor("ok", id: 1), "the daemon answers status during the storm")
        #expect(status["ssip_clients"] == .integer(Int64(ssipConnections + 1)))

        // End what still waits: unmute (the native storm mutes at random), then cancel everything.
        watcher.send(#"{"op":"set","id":2,"muted":false}"#)
        try #require(watcher.waitFor("ok", id: 2) != nil)
        #expect(control.command("CANCEL all")?.code == 213)

        let results = outcomes.withLock { $0 }
        #expect(results.count == ssipConnections)
        var ends = 0
        var cancels = 0
        for index in 0..<ssipConnections {
            let client = ssipClients[index]
            switch results[index] {
            case .failure(let error):
                Issue.record("\(error)")
            case .success(let outcome):
                #expect(outcome.wrongReplies.isEmpty, "connection \(index): \(outcome.wrongReplies)")
                // The connections that enabled fewer events are looked at below.
                guard stormNotifications(index) == ["all"] else { continue }
                // Once one is missing, the rest are looked at without waiting again.
                var waiting = 60.0
                for id in outcome.messageIDs where client.waitForTerminal(messageID: id, timeout: waiting) == nil {
                    Issue.record(
                        "connection \(index), message \(id) (\(outcome.queuedBy[id] ?? "?")): no 702 or 703; its events: \(client.events(messageID: id))"
                    )
                    waiting = 0
                }
                // A round trip: any event written before its reply has been read.
                #expect(client.command("HISTORY GET CLIENT_ID")?.code == 245)
                let events = client.blocks.filter(\.isEvent)
                let own = Set(outcome.messageIDs)
                #expect(
                    Set(events.compactMap(\.messageID)).isSubset(of: own) && events.allSatisfy { $0.messageID != nil },
                    "connection \(index) got events about others' messages")
                #expect(
                    events.allSatisfy { $0.clientID == outcome.clientID },
                    "connection \(index): events carry its client id")
                for id in outcome.messageIDs {
                    let codes = client.events(messageID: id).map(\.code)
                    #expect(codes.count { $0 == 702 || $0 == 703 } == 1, "connection \(index), message \(id): \(codes)")
                    #expect(codes.last == 702 || codes.last == 703, "connection \(index), message \(id): \(codes)")
                    #expect(
                        codes.count { $0 == 701 } <= 1 && codes.first(where: { $0 != 700 }) != 705,
                        "connection \(index), message \(id): \(codes)")
                    if codes.last == 702 { ends += 1 } else { cancels += 1 }
                }
            case nil:
                Issue.record("connection \(index) did not finish")
            }
        }

        // The connections that enabled no events or only END: by now every message has ended
        // (the others' all have), and a round trip reads whatever was written before it.
        for index in 0..<ssipConnections where stormNotifications(index) != ["all"] {
            let client = ssipClients[index]
            #expect(client.command("HISTORY GET CLIENT_ID")?.code == 245)
            let events = client.blocks.filter(\.isEvent)
            let allowed: Set<Int> = stormNotifications(index) == ["end"] ? [702] : []
            #expect(
                events.allSatisfy { allowed.contains($0.code) },
                "connection \(index) enabled \(stormNotifications(index)) and got \(events)")
            #expect(
                Set(events.compactMap(\.messageID)).count == events.count,
                "connection \(index): one END per message at most")
        }

        print(
            "SSIP storm: \(ends + cancels) messages on \(ssipConnections) connections, \(ends) ended 702, \(cancels) ended 703"
        )
        #expect(ends > 0 && cancels > 0, "the storm both finished and cancelled messages")

        for (index, native) in natives.enumerated() {
            native.client.finishSending()
            #expect(
                native.client.waitForEOF(timeout: 120),
                "native connection \(index): the daemon answers every post, then closes")
            for id in native.posts {
                let lines = native.client.lines(id: id).map { $0.event ?? "?" }
                #expect(
                    lines.count { ["finished", "dropped", "error"].contains($0) } == 1,
                    "native connection \(index), post \(id): \(lines)")
            }
        }

        // Closed SSIP connections leave the count; ask until they have.
        for client in ssipClients + [control] { client.disconnect() }
        var ssipLeft: Int64 = -1
        for attempt in 10..<210 where ssipLeft != 0 {
            watcher.send(#"{"op":"status","id":\#(attempt)}"#)
            let status = try #require(watcher.waitFor("ok", id: attempt), "the daemon still answers")
            ssipLeft = status["ssip_clients"]?.integerValue ?? -1
        }
        #expect(ssipLeft == 0, "the closed SSIP connections are no longer counted")
    }
}

/// Hands a non-Sendable value to one concurrent iteration that alone uses it.
struct SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
