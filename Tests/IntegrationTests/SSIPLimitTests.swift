// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("Daemon: limits and peers on the SSIP socket, over real sockets", .daemonTimeLimit, .onBlockingThreads)
struct SSIPLimitTests {
    /// Proves a client is still served on both sockets: an SSIP client's CLIENT_ID and a message
    /// queued, and a native `status`.
    func expectServing(_ daemon: DaemonProcess, ssip path: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let ssip = try RawSSIPClient(path: path)
        ssip.send("HISTORY GET CLIENT_ID")
        #expect(ssip.replyLine() == "245 OK CLIENT ID SENT", sourceLocation: sourceLocation)
        ssip.send("SET self PRIORITY important", "CHAR a")
        #expect(ssip.replyLine() == "202 OK PRIORITY SET", sourceLocation: sourceLocation)
        #expect(ssip.replyLine() == "225 OK MESSAGE QUEUED", sourceLocation: sourceLocation)
        let native = try daemon.connect()
        native.send(#"{"op":"status","id":1}"#)
        #expect(native.waitFor("ok", id: 1) != nil, sourceLocation: sourceLocation)
    }

    @Test(
        "an SSIP client that never reads its replies and events is cut off past max_outbound_bytes; others are unaffected"
    )
    func slowReader() throws {
        let place = SSIPSocketPlace()
        defer { place.remove() }
        let daemon = try DaemonProcess(environment: place.environment)
        let sleeper = try RawSSIPClient(path: place.path)
        // Each message replaces the one before (priority text), so each one costs the sleeper a
        // 230 and a 225 reply and a 703 event, and none waits long enough to fill its queue.
        sleeper.send("SET self NOTIFICATION all on", "SET self PRIORITY text")
        let speak = "SPEAK\r\nnever read\r\n.\r\n"
        let batch = Array(String(repeating: speak, count: 500).utf8)
        var sent = 0
        while sleeper.sendError == nil && sent < 200_000 {
            sleeper.sendRaw(batch)
            sent += 500
        }
        #expect(sleeper.sendError != nil, "the daemon should have closed the connection while it was still sending")
        #expect(sleeper.waitForEOF(), "the slow reader should have been disconnected")
        #expect(
            sleeper.bytesRead < 2 * 1_048_576, "at most max_outbound_bytes and the socket buffers: \(sleeper.bytesRead)"
        )
        try expectServing(daemon, ssip: place.path)
    }

    @Test(
        "an SSIP socket another server answers on makes the daemon exit 1 with a reason that names speech-dispatcher and --ssip-socket"
    )
    func liveSSIPSocket() throws {
        let place = SSIPSocketPlace()
        defer { place.remove() }
        let first = try DaemonProcess(environment: place.environment)
        let second = try DaemonProcess(environment: place.environment, waitForReady: false)
        #expect(second.waitForExit() == 1)
        let reason = second.stderrText().split(separator: "\n").last.map(String.init) ?? ""
        #expect(reason.contains("a speech server is already serving \(place.path)"), "\(reason)")
        #expect(reason.contains("speech-dispatcher") && reason.contains("--ssip-socket"), "\(reason)")
        try expectServing(first, ssip: place.path)
    }

    @Test(
        "max_pending_per_client on SSIP: the 257th waiting message, answered 225 from the event loop, ends at once with 703 and is never spoken; the connection and daemon keep serving"
    )
    func tooManyMessages() throws {
        let place = SSIPSocketPlace()
        defer { place.remove() }
        let daemon = try DaemonProcess(environment: place.environment)
        let client = try RawSSIPClient(path: place.path)
        client.send("SET self NOTIFICATION begin on", "SET self NOTIFICATION cancel on", "SET self PRIORITY message")
        #expect(client.replyLine() == "220 OK NOTIFICATION SET")
        #expect(client.replyLine() == "220 OK NOTIFICATION SET")
        #expect(client.replyLine() == "202 OK PRIORITY SET")
        // A long message speaks first, so none of the 257 can start (and free its place) however
        // the daemon's reads split them: the speaking message is not waiting, the 257 are.
        client.send("SPEAK", String(repeating: "Speaking while the queue fills. ", count: 40), ".")
        #expect(client.replyLine() == "230 OK RECEIVING DATA")
        let first = try #require(client.reply())
        #expect(first.last == "225 OK MESSAGE QUEUED")
        let firstID = String(first.first?.dropFirst(4) ?? "")
        #expect(client.waitForEvent("701 BEGIN", message: firstID))

        client.sendRaw(Array((1...257).map { "SPEAK\r\nwaiting \($0)\r\n.\r\n" }.joined().utf8))
        #expect(client.sendError == nil)
        var outcomes: [[String]] = []
        for _ in 1...257 {
            #expect(client.replyLine() == "230 OK RECEIVING DATA")
            outcomes.append(client.reply() ?? ["no reply"])
        }
        // Nothing is owed or held on the connection, so every 225 comes from the event loop,
        // before the dispatcher counts the message; the one past the limit then ends at once.
        #expect(outcomes.allSatisfy { $0.last == "225 OK MESSAGE QUEUED" })
        let lastID = try #require(outcomes.last?.first.map { String($0.dropFirst(4)) })
        #expect(client.waitForEvent("703 CANCELED", message: lastID), "the message past the limit is cancelled")
        #expect(!client.events.contains { $0.first == "701-\(lastID)" }, "and never began")
        client.send("GET RATE")
        #expect(client.reply() == ["251-0", "251 OK GET RETURNED"], "the connection keeps working")
        client.send("CANCEL self")
        #expect(client.replyLine() == "213 OK CANCELED")
        try expectServing(daemon, ssip: place.path)
    }

    @Test(
        "a peer of another uid gets one 300 line on the SSIP socket and is disconnected",
        .enabled(if: getuid() == 0, "needs root to connect as another user"))
    func forbiddenPeer() throws {
        let place = SSIPSocketPlace()
        defer { place.remove() }
        chmod(place.directory.path, 0o755)
        let daemon = try DaemonProcess(environment: place.environment)
        chmod(place.path, 0o666) // let the other user reach the socket: SO_PEERCRED must still refuse it
        let output = try readAsAnotherUser(from: place.path, sending: "SET SELF CLIENT_NAME \"nobody:test:main\"\r\n")
        let lines = output.split(separator: "\r\n")
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("300 ERR THIS DAEMON SERVES ONLY USER \(getuid());") == true, "\(lines)")
        try expectServing(daemon, ssip: place.path)
    }
}
