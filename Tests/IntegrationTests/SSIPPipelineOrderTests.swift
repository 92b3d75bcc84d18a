// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// A client that does not wait for its replies (it writes a storm of commands at once) still gets
/// them in order, over a real socket: replies the event loop writes itself never overtake the 225
/// of an earlier message or the answer to an earlier CANCEL, and a CANCEL's 213 comes after the
/// END or CANCELED of every message sent before it.
@Suite(
    "SSIP: a pipelined storm of SET, GET, SPEAK, CHAR and CANCEL on a real socket", .daemonTimeLimit, .onBlockingThreads
)
struct SSIPPipelineOrderTests {
    @Test(
        "every reply in the order of its command, 225 before its message's events, 213 after the ends it caused",
        arguments: [11, 12] as [UInt64])
    func pipelinedStorm(seed: UInt64) throws {
        let ssip = try SSIPDaemon(audio: "null")
        let client = try ssip.connectSSIP()
        var random = SplitMix64(state: seed)
        var commands = ["SET self NOTIFICATION all on"]
        for step in 0..<200 {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<25: commands.append("SET self RATE \(Int.random(in: -50...50, using: &random))")
            case 25..<45: commands.append("GET RATE")
            case 45..<70: commands.append("SPEAK\r\nstorm \(step)\r\n.")
            case 70..<78: commands.append("CHAR x")
            case 78..<88: commands.append("CANCEL self")
            default:
                commands.append(
                    "SET self PRIORITY \(["text", "text", "message", "important"].randomElement(using: &random)!)")
            }
        }
        // The last message is spoken after every other has ended (message waits its turn).
        commands += ["SET self PRIORITY message", "SPEAK\r\nthe end\r\n."]
        let bytes = Array(commands.map { $0 + "\r\n" }.joined().utf8)
        // In writes of a few hundred bytes, cut anywhere: the daemon reads them as they come.
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + Int.random(in: 1...400, using: &random))
            client.sendRaw(Array(bytes[offset..<end]))
            offset = end
        }
        let expectedReplies = commands.reduce(0) { $0 + ($1.hasPrefix("SPEAK") ? 2 : 1) }
        var lines: [String] = []
        var replies = 0
        while replies < expectedReplies, let line = client.nextLine(timeout: 60) {
            lines.append(line)
            if !line.hasPrefix("7"), line.count >= 4, line.dropFirst(3).first == " " { replies += 1 }
        }
        #expect(replies == expectedReplies, "\(lines.suffix(10))")
        let last = try #require(lines.last { $0.hasPrefix("225-") }).dropFirst(4)
        // Everything about the earlier messages has come once the last one ended.
        var blockStart: String?
        while let line = client.nextLine(timeout: 60) {
            lines.append(line)
            if blockStart == nil { blockStart = line }
            guard line.dropFirst(3).first == " " else { continue }
            if line == "702 END" || line == "703 CANCELED", blockStart?.dropFirst(4) == last { break }
            blockStart = nil
        }
        let problems = SSIPReplyOrder.check(commands: commands, written: lines)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
