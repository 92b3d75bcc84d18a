// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// One SSIP client of the soak: a raw connection read the way `run_test` reads (a command, then
/// the next complete reply), with what the soak knows of it.
private final class SoakSSIPClient {
    let connection: RawSSIPClient
    /// The ids of its messages (their 225), in order.
    var messages: [Int] = []
    var paused = false
    var inBlock = false

    init(_ ssip: SSIPDaemon, index: Int) throws {
        connection = try ssip.connectSSIP()
        for (line, code) in [
            ("SET self CLIENT_NAME \"soak:ssip:\(index)\"", 208), ("SET self NOTIFICATION all on", 220),
            ("SET self RATE 80", 203),
        ] where connection.command(line)?.code != code {
            throw SSIPClientError("\(line) was refused")
        }
    }

    /// Reads what has already arrived (events of earlier commands), so that it is not taken for
    /// what the next command causes.
    func drain() { while connection.nextBlock(timeout: 0.05) != nil {} }

    /// Sends `line` and takes the next complete reply as `run_test` does; a problem when it is not
    /// `code`, or when an event `caused` (704, 705) about one of its messages came before it.
    func command(_ line: String, _ code: Int, caused: Int? = nil) -> [String] {
        connection.send(line)
        return reply(to: line, code, caused: caused)
    }

    func reply(to line: String, _ code: Int, caused: Int? = nil) -> [String] {
        var problems: [String] = []
        while true {
            guard let lines = connection.nextBlock(timeout: 20) else { return ["\(line): no reply"] }
            let block = SSIPBlock(lines: lines)
            if block.isEvent {
                if let caused, block.code == caused { problems.append("\(line): \(block) came before its reply") }
                continue
            }
            if block.code != code { problems.append("\(line): answered \(block), not \(code)") }
            if block.code == 225, let id = block.data.first.flatMap({ Int($0) }) { messages.append(id) }
            return problems
        }
    }

    /// `SPEAK` of `text` (SSML when it starts with `<speak>`): 230, the data, 225.
    func speak(_ text: String) -> [String] {
        var problems = command("SPEAK", 230)
        connection.sendRaw(Array((text + "\r\n.\r\n").utf8))
        problems += reply(to: "SPEAK data", 225)
        return problems
    }

    /// Every message got exactly one 702 or 703.
    func terminalProblems(timeout: Double) -> [String] {
        var problems: [String] = []
        for id in messages {
            guard connection.waitForTerminal(messageID: id, timeout: timeout) != nil else {
                problems.append("message \(id): no 702/703")
                continue
            }
            let count = connection.events(messageID: id).count { $0.code == 702 || $0.code == 703 }
            if count != 1 { problems.append("message \(id): \(count) of 702/703") }
        }
        return problems
    }
}

/// One native client of the soak.
private final class SoakNativeClient {
    let connection: LineClient
    var posts: [Int] = []
    var nextID = 1
    var paused = false

    init(_ daemon: DaemonProcess) throws { connection = try daemon.connect() }

    /// Reads what has already arrived, so that it is not taken for what the next request causes.
    func drain() { while connection.nextLine(timeout: 0.05) != nil {} }

    func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    /// Sends a control and reads to its `ok`; a problem when a line it causes about this
    /// connection's posts (`caused`: `paused`, `resumed`, or `finished` cancelled) came first.
    func control(_ op: String, caused: String? = nil) -> [String] {
        let id = makeID()
        let before = connection.received.count
        connection.send(#"{"op":"\#(op)","id":\#(id)}"#)
        guard connection.waitFor("ok", id: id, timeout: 20) != nil else { return ["\(op): no ok"] }
        let early = connection.received[before...].prefix { !($0.event == "ok" && $0["id"] == .integer(Int64(id))) }
            .filter { line in
                guard let caused else { return false }
                if caused == "finished" { return line.event == "finished" && line["reason"] == .string("cancelled") }
                return line.event == caused
            }
        return early.map { "\(op): \($0.text) came before its ok" }
    }

    func terminalProblems(timeout: Double) -> [String] {
        var problems: [String] = []
        for id in posts {
            guard connection.waitForTerminal(id: id, timeout: timeout) != nil else {
                problems.append("post \(id): no terminal line")
                continue
            }
            let count = connection.lines(id: id).count { ["finished", "dropped", "error"].contains($0.event ?? "") }
            if count != 1 { problems.append("post \(id): \(count) terminal lines") }
        }
        return problems
    }
}

/// Many SSIP and native clients at once, doing what desktop clients do (SPEAK, SSML with marks,
/// PAUSE, RESUME, STOP, CANCEL, priority changes, blocks) and being killed mid-pause or
/// mid-block. Steps alternate between the protocols; after every step a fresh client of the other
/// protocol speaks and must be heard to its end within a bound, every message of the clients still
/// connected must have exactly one terminal event, and no reply came after an event it caused.
///
/// `ANNOUNCED_SOAK_SECONDS` sets how long it runs (45 s by default, `make soak` runs it longer);
/// `ANNOUNCED_SOAK_SEED` replays a run. It prints its figures.
@Suite(
    "Soak: SSIP and native clients pausing, cancelling and dying; a fresh client is heard after every step",
    .onBlockingThreads)
struct ProtocolSoakTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seconds = environment["ANNOUNCED_SOAK_SECONDS"].flatMap(Double.init) ?? 45
    static let seed = environment["ANNOUNCED_SOAK_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970)
    static let freshText = "Ready for the next step."
    /// How long a fresh client's message may take to be heard to its end after its step.
    static let bound: Double = 30

    static let texts = [
        "Saved.", "Three new messages from the design team.", "Battery at twenty percent.",
        "The download of the quarterly report finished a moment ago.",
    ]

    static func marked(_ words: Int, random: inout SplitMix64) -> String {
        let names = (0..<words).map { "<mark name=\"m\($0)\"/>word\(Int.random(in: 0...9, using: &random))" }
        return "<speak>" + names.joined(separator: " ") + "</speak>"
    }

    @Test(
        "random SSIP and native traffic with kills mid-pause and mid-block; after every step a fresh client is heard to the end"
    )
    func soak() throws {
        var random = SplitMix64(state: Self.seed)
        let ssip = try SSIPDaemon()
        let watcher = try speechWatcher(ssip.daemon)
        var problems: [String] = []
        /// Operations by protocol, clients killed mid-pause or mid-block and otherwise, terminal
        /// events checked.
        var operations = (ssip: 0, native: 0)
        var kills = (held: 0, other: 0)
        var terminalsChecked = 0
        var steps = 0

        // What the fresh text sounds like, rendered first.
        watcher.send(announce(1, Self.freshText))
        let referenceSeq = try #require(watcher.waitFor("queued", id: 1)?["seq"]?.intValue)
        try #require(watcher.waitForTerminal(id: 1)?["success"] == .bool(true))
        let reference = WAVFile.trimmed(try ssip.daemon.wavSamples(seq: referenceSeq)).count
        var nextWatcherID = 2

        var ssipClients = try (0..<5).map { try SoakSSIPClient(ssip, index: $0) }
        var nativeClients = try (0..<3).map { _ in try SoakNativeClient(ssip.daemon) }
        var connections = 5
        let start = Date()
        while Date().timeIntervalSince(start) < Self.seconds {
            let ssipStep = steps % 2 == 0
            if ssipStep {
                for _ in 0..<12 {
                    operations.ssip += 1
                    let index = Int.random(in: 0..<ssipClients.count, using: &random)
                    let client = ssipClients[index]
                    client.drain()
                    var choice = Int.random(in: 0..<13, using: &random)
                    // Inside a block only SPEAK, CHAR, BLOCK END and being killed are allowed.
                    if client.inBlock, ![0, 1, 9, 10, 11, 12].contains(choice) { choice = 9 }
                    if !client.inBlock, choice == 9 { choice = 8 }
                    // Killed mid-pause or mid-block, and now and then at any time.
                    if [10, 11].contains(choice), !(client.paused || client.inBlock || Bool.random(using: &random)) {
                        choice = 0
                    }
                    switch choice {
                    case 0, 1:
                        problems += client.speak(Self.texts.randomElement(using: &random)!)
                    case 2:
                        problems += client.command("SET self SSML_MODE on", 219)
                        problems += client.speak(Self.marked(Int.random(in: 6...20, using: &random), random: &random))
                        problems += client.command("SET self SSML_MODE off", 219)
                    case 3:
                        problems += client.command("PAUSE self", 211, caused: 704)
                        client.paused = true
                    case 4:
                        problems += client.command("RESUME self", 212, caused: 705)
                        client.paused = false
                    case 5:
                        problems += client.command(Bool.random(using: &random) ? "STOP self" : "STOP all", 210)
                    case 6:
                        problems += client.command(Bool.random(using: &random) ? "CANCEL self" : "CANCEL all", 213)
                    case 7:
                        let priority = ["important", "message", "text", "notification", "progress"].randomElement(
                            using: &random)!
                        problems += client.command("SET self PRIORITY \(priority)", 202)
                    case 8:
                        problems += client.command("BLOCK BEGIN", 260)
                        client.inBlock = true
                    case 9:
                        problems += client.command("BLOCK END", 261)
                        client.inBlock = false
                    case 10, 11:
                        // The socket closes, no QUIT: as when the process is killed.
                        client.connection.disconnect()
                        if client.paused || client.inBlock { kills.held += 1 } else { kills.other += 1 }
                        connections += 1
                        ssipClients[index] = try SoakSSIPClient(ssip, index: connections)
                    default:
                        problems += client.command("CHAR x", 225)
                    }
                }
                // The step ends: the clients still paused resume, blocks close.
                for client in ssipClients {
                    if client.inBlock { problems += client.command("BLOCK END", 261) }
                    if client.paused { problems += client.command("RESUME self", 212, caused: 705) }
                    client.inBlock = false
                    client.paused = false
                }
            } else {
                for _ in 0..<8 {
                    operations.native += 1
                    let index = Int.random(in: 0..<nativeClients.count, using: &random)
                    let client = nativeClients[index]
                    let channelHeld = nativeClients.contains(where: \.paused)
                    client.drain()
                    var choice = Int.random(in: 0..<8, using: &random)
                    if choice == 6, !(client.paused || Bool.random(using: &random)) { choice = 0 }
                    switch choice {
                    case 0, 1, 2:
                        let id = client.makeID()
                        let extra = [#","queue":true"#, #","priority":"low""#, "", #","priority":"high""#]
                            .randomElement(using: &random)!
                        client.connection.send(
                            announce(id, Self.texts.randomElement(using: &random)!, extra + #","rate":300"#))
                        client.posts.append(id)
                    case 3:
                        problems += client.control("pause", caused: channelHeld ? nil : "paused")
                        client.paused = true
                    case 4:
                        problems += client.control("resume", caused: channelHeld ? "resumed" : nil)
                        for other in nativeClients { other.paused = false }
                    case 5:
                        problems += client.control("stop", caused: "finished")
                    case 6:
                        // Killed mid-pause (or at any time): its socket closes.
                        if client.paused { kills.held += 1 } else { kills.other += 1 }
                        nativeClients[index] = try SoakNativeClient(ssip.daemon)
                    default:
                        problems += client.control("status")
                    }
                }
                for client in nativeClients where client.paused {
                    problems += client.control("resume")
                    for other in nativeClients { other.paused = false }
                }
            }
            steps += 1

            // A fresh client of the other protocol is heard to its end within the bound.
            let heard: Int?
            if ssipStep {
                let fresh = try ssip.daemon.connect()
                fresh.send(announce(1, Self.freshText, #","queue":true"#))
                let seq = fresh.waitFor("queued", id: 1)?["seq"]?.intValue
                let end = fresh.waitForTerminal(id: 1, timeout: Self.bound)
                if end?["success"] != .bool(true) {
                    problems.append("step \(steps): the fresh native post ended \(end?.text ?? "never")")
                }
                heard = seq.flatMap { try? WAVFile.trimmed(ssip.daemon.wavSamples(seq: $0)).count }
            } else {
                let fresh = try ssip.connectSSIP()
                _ = fresh.command("SET self NOTIFICATION all on")
                let id = fresh.speak(Self.freshText).messageID
                let end = id.flatMap { fresh.waitForTerminal(messageID: $0, timeout: Self.bound) }
                if end?.code != 702 {
                    problems.append("step \(steps): the fresh SSIP message ended \(end?.description ?? "never")")
                }
                heard = id.flatMap { try? WAVFile.trimmed(ssip.daemon.wavSamples(seq: $0)).count }
            }
            if let heard, abs(heard - reference) <= reference / 50 {
            } else {
                problems.append("step \(steps): the fresh message was heard for \(heard ?? 0) samples of \(reference)")
            }
            // Exactly one terminal event for every message of the clients still connected.
            for client in ssipClients {
                problems += client.terminalProblems(timeout: Self.bound)
                terminalsChecked += client.messages.count
                client.messages = []
            }
            for client in nativeClients {
                problems += client.terminalProblems(timeout: Self.bound)
                terminalsChecked += client.posts.count
                client.posts = []
            }
            if !problems.isEmpty { break }
        }
        let elapsed = Date().timeIntervalSince(start)
        watcher.send(#"{"op":"status","id":\#(nextWatcherID)}"#)
        nextWatcherID += 1
        let status = watcher.waitFor("ok", id: nextWatcherID - 1)
        print(
            String(
                format: "soak: %.1f s, %d steps (each checked by a fresh client), %d SSIP and %d native operations, "
                    + "%d clients killed mid-pause or mid-block and %d at other times, %d terminal events checked, seed %llu",
                elapsed, steps, operations.ssip, operations.native, kills.held, kills.other, terminalsChecked, Self.seed
            ))
        #expect(problems.isEmpty, "seed \(Self.seed), step \(steps): \(problems.prefix(10))")
        #expect(status?["paused"] == .bool(false), "nothing is left paused")
        #expect(steps >= 2)
    }
}
