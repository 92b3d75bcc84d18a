// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A small deterministic random number generator, so a failing storm can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What one storm connection sends: a random mix of every op.
func stormLines(seed: UInt64, count: Int) -> (lines: [String], postIDs: [Int], lastAnswered: Int) {
    var random = SplitMix64(state: seed)
    var lines: [String] = []
    var posts: [Int] = []
    var lastAnswered = 0
    for id in 0..<count {
        let options = [
            "", #","queue":true"#, #","priority":"low""#, #","priority":"high""#, #","priority":"high","queue":true"#,
            #","thread":"background""#, #","words":true"#,
        ].randomElement(using: &random)!
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<45:
            lines.append(announce(id, "storm \(id)", options))
            posts.append(id)
        case 45..<55:
            lines.append(
                #"{"op":"focus","id":\#(id),"element":{"id":"e\#(id)","label":"Item \#(id)","traits":["button"]}\#(options)}"#
            )
            posts.append(id)
        case 55..<62:
            lines.append(
                #"{"op":"screen-changed","id":\#(id),"element":null,"elements":[{"id":"s\#(id)","label":"Screen \#(id)"}]\#(options)}"#
            )
            posts.append(id)
        case 62..<68:
            lines.append(
                #"{"op":"layout-changed","id":\#(id),"element":\#(Bool.random(using: &random) ? "null" : "\"changed\"")\#(options)}"#
            )
            posts.append(id)
        case 68..<76:
            lines.append(#"{"op":"cancel","id":\#(id),"target":\#(Int.random(in: 0...max(0, id), using: &random))}"#)
        case 76..<80:
            lines.append(#"{"op":"stop","id":\#(id)}"#)
        case 80..<84:
            lines.append(#"{"op":"set","id":\#(id),"muted":\#(Bool.random(using: &random))}"#)
        case 84..<90:
            lines.append(#"{"op":"status","id":\#(id)}"#)
        case 90..<95:
            lines.append(#"{"op":"announce","id":\#(id),"text":""}"#) // invalid
            posts.append(id)
        default:
            lines.append(#"{"op":"announce","text":"fire and forget \#(id)"}"#)
            continue
        }
        lastAnswered = id
    }
    return (lines, posts, lastAnswered)
}

@Suite("Storm: many connections, every op, nothing lost", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct StormTests {
    @Test("every post with an id gets exactly one terminal line, in order, and the daemon still answers")
    func storm() throws {
        let daemon = try DaemonProcess(audio: "null")
        let connections = 12
        let perConnection = 150
        var clients: [LineClient] = []
        var expected: [[Int]] = []
        var lastIDs: [Int] = []
        for index in 0..<connections {
            let client = try daemon.connect()
            let (lines, posts, last) = stormLines(seed: UInt64(index + 1), count: perConnection)
            lastIDs.append(last)
            // Write in uneven chunks so reads split lines differently.
            var bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            var random = SplitMix64(state: UInt64(index) &* 7919)
            while !bytes.isEmpty {
                let chunk = min(bytes.count, Int.random(in: 1...4096, using: &random))
                client.sendRaw(Array(bytes[..<chunk]))
                bytes.removeFirst(chunk)
            }
            clients.append(client)
            expected.append(posts)
        }
        // Clients that vanish mid-storm: their posts play on; the daemon must not mind.
        for seed in 100..<104 {
            let leaver = try daemon.connect()
            leaver.send(contentsOf: stormLines(seed: UInt64(seed), count: 40).lines)
        }
        // Unmute, then stop whatever still waits, so the storm ends.
        let control = try daemon.connect()
        for (client, last) in zip(clients, lastIDs) {
            try #require(client.waitFor { $0["id"] == .integer(Int64(last)) } != nil)
        }
        control.send(#"{"op":"set","id":1,"muted":false}"#, #"{"op":"stop","id":2}"#)
        control.waitFor("ok", id: 2)
        for (client, posts) in zip(clients, expected) {
            client.finishSending()
            #expect(client.waitForEOF(timeout: 120), "the daemon answers every post, then closes")
            for id in posts {
                let lines = client.lines(id: id).map { $0.event ?? "?" }
                let terminals = lines.filter { ["finished", "dropped", "error"].contains($0) }
                #expect(terminals.count == 1, "post \(id): \(lines)")
                let order = lines.filter { ["queued", "started", "finished", "dropped", "error"].contains($0) }
                #expect(
                    ["queued,finished", "queued,started,finished", "dropped", "error"].contains(
                        order.joined(separator: ",")), "post \(id): \(lines)")
            }
        }
        // Closed connections leave the dispatcher just after their last line; ask until they have.
        let after = try daemon.connect()
        var clientsLeft: Int64 = -1
        for attempt in 0..<200 where clientsLeft != 2 {
            after.send(#"{"op":"status","id":\#(attempt)}"#)
            let status = try #require(after.waitFor("ok", id: attempt), "the daemon still answers")
            clientsLeft = status["clients"]?.integerValue ?? -1
        }
        #expect(clientsLeft == 2, "only the control connection and this one are left")
    }

    @Test("SIGTERM during a storm loses no terminal line; a restart right after serves the same socket")
    func sigtermDuringStorm() throws {
        let daemon = try DaemonProcess(audio: "null")
        let clients = try (0..<6).map { _ in try daemon.connect() }
        var expected: [[Int]] = []
        var lastIDs: [Int] = []
        for (index, client) in clients.enumerated() {
            let (lines, posts, last) = stormLines(seed: UInt64(50 + index), count: 100)
            client.send(contentsOf: lines)
            expected.append(posts)
            lastIDs.append(last)
        }
        for (client, last) in zip(clients, lastIDs) {
            try #require(client.waitFor { $0["id"] == .integer(Int64(last)) } != nil)
        }
        #expect(daemon.stop(signal: SIGTERM) == 0)
        for (client, posts) in zip(clients, expected) {
            #expect(client.waitForEOF(timeout: 30))
            for id in posts {
                let terminals = client.lines(id: id).filter {
                    ["finished", "dropped", "error"].contains($0.event ?? "")
                }
                #expect(terminals.count == 1, "post \(id): \(client.lines(id: id).map(\.text))")
            }
        }
        let restarted = try DaemonProcess(audio: "null", socketPath: daemon.socketPath)
        let client = try restarted.connect()
        client.send(announce(1, "Back"))
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
    }

    @Test("1,000 simultaneous connections are held and served")
    func thousandConnections() throws {
        raiseOpenFileLimit(to: 4096)
        let daemon = try DaemonProcess(audio: "null")
        var clients: [LineClient] = []
        for _ in 0..<1000 { clients.append(try daemon.connect()) }
        for (index, client) in clients.enumerated() {
            client.send(#"{"op":"hello","id":\#(index),"client":"c\#(index)"}"#)
        }
        for (index, client) in clients.enumerated() {
            #expect(client.waitFor("ok", id: index) != nil)
        }
        clients[0].send(#"{"op":"status","id":"s"}"#)
        #expect(clients[0].waitFor { $0["id"] == .string("s") }?["clients"] == .integer(1000))
    }
}

extension LineClient {
    /// Writes every line in one write.
    func send(contentsOf lines: [String]) { sendRaw(Array(lines.map { $0 + "\n" }.joined().utf8)) }
}

/// Raises this process's soft limit on open files (children inherit it), up to the hard limit.
func raiseOpenFileLimit(to wanted: rlim_t) {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    guard limit.rlim_cur < wanted else { return }
    limit.rlim_cur = min(wanted, limit.rlim_max)
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}
