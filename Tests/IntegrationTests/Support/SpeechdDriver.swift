// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Foundation
import Glibc
import TestSupport
import Testing

/// Debian's python3-speechd (`speechd.SSIPClient`), driven by `Tests/SSIPClients/speechd_driver.py`
/// under `/usr/bin/python3` (the interpreter the Debian package is installed for): JSON commands
/// on its standard input, JSON lines of replies and callbacks on its standard output.
final class SpeechdDriver {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SSIPClients/speechd_driver.py")

    /// The daemon, kept running while the driver talks to it.
    let daemon: SSIPDaemon
    /// The driver's process (killed, if still running, when the driver goes).
    private let driver: AnnouncectlProcess
    private var output: LineCollector { driver.output }
    private var errors: LineCollector { driver.errors }
    /// Indices of output lines already returned by a `waitFor`.
    private var matched = Set<Int>()

    /// Starts the driver against `daemon`'s SSIP socket; autospawn can only run `/bin/false`.
    init(_ daemon: SSIPDaemon) throws {
        self.daemon = daemon
        driver = try AnnouncectlProcess(
            [Self.script.path], environment: daemon.clientEnvironment,
            unsetting: ["SPEECHD_SOCKET", "SPEECHD_HOST", "SPEECHD_PORT", "PYTHONPATH", "PYTHONHOME"],
            executable: URL(fileURLWithPath: "/usr/bin/python3")
        )
    }

    /// Every JSON line the driver printed so far.
    var lines: [JSONValue] {
        output.completeLines().map { (try? JSONParser.parse(Array($0.utf8))) ?? .string($0) }
    }

    /// The first line for which `predicate` holds that no earlier `waitFor` returned; nil after
    /// `timeout` seconds or when the driver exited.
    @discardableResult
    func waitFor(timeout: Double = 30, _ predicate: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = 0
        while true {
            let all = lines
            for index in seen..<all.count where !matched.contains(index) && predicate(all[index]) {
                matched.insert(index)
                return all[index]
            }
            seen = all.count
            guard output.waitForMoreLines(than: seen, until: deadline) else { return nil }
        }
    }

    /// Sends one command (a JSON object) and returns the driver's reply to it.
    func request(_ op: String, client: String = "a", _ fields: JSONObject = [:], timeout: Double = 30) throws
        -> JSONValue
    {
        var object = fields
        object["op"] = .string(op)
        object["client"] = .string(client)
        driver.write(JSONValue.object(object).jsonText + "\n")
        guard
            let reply = waitFor(
                timeout: timeout, { $0["reply"]?.stringValue == op && $0["client"]?.stringValue == client })
        else {
            throw DriverError(what: "no reply to \(op) from python3-speechd", stderr: errors.currentText())
        }
        if let error = reply["error"]?.stringValue {
            throw DriverError(what: "python3-speechd's \(op) failed: \(error)", stderr: errors.currentText())
        }
        return reply
    }

    /// Opens client `name` (an `SSIPClient`: CLIENT_NAME, HISTORY GET CLIENT_ID, six NOTIFICATION on).
    /// Its CLIENT_NAME is `user:application:component`: `unknown:pytest-NAME:default` unless
    /// `application` (and `component`, `user`) say otherwise, as `SSIPClient(application, component, user)`.
    @discardableResult
    func connect(_ name: String = "a", application: String? = nil, component: String? = nil, user: String? = nil)
        throws -> Int
    {
        var fields: JSONObject = [:]
        if let application { fields["application"] = .string(application) }
        if let component { fields["component"] = .string(component) }
        if let user { fields["user"] = .string(user) }
        return try #require(try request("connect", client: name, fields)["client_id"]?.intValue)
    }

    /// `SSIPClient.speak(text, callback)`; the message id.
    @discardableResult
    func speak(_ text: String, client: String = "a", tag: String) throws -> Int {
        let reply = try request("speak", client: client, ["text": .string(text), "tag": .string(tag)])
        return try #require(reply["msg_id"]?.intValue)
    }

    /// Calls `SSIPClient.method(args...)` and returns what it returned.
    @discardableResult
    func call(_ method: String, client: String = "a", _ arguments: JSONValue...) throws -> JSONValue? {
        try request("call", client: client, ["method": .string(method), "args": .array(arguments)])["result"]
    }

    /// Sends a raw command through the client's connection (for what the API has no method for).
    func command(_ words: String..., client: String = "a") throws -> (code: Int, data: [String]) {
        let reply = try request("command", client: client, ["words": .array(words.map { .string($0) })])
        let data = reply["data"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return (try #require(reply["code"]?.intValue), data)
    }

    /// The reply to a command the test expects to fail: the error's SSIP code.
    func failingRequest(_ op: String, client: String = "a", _ fields: JSONObject) -> JSONValue? {
        var object = fields
        object["op"] = .string(op)
        object["client"] = .string(client)
        driver.write(JSONValue.object(object).jsonText + "\n")
        return waitFor { $0["reply"]?.stringValue == op && $0["client"]?.stringValue == client }
    }

    /// Waits for the callback `type` (`begin`, `end`, `cancel`, `pause`, `resume`,
    /// `index_marks`) of message `tag` of `client`.
    @discardableResult
    func waitForCallback(_ type: String, tag: String, client: String = "a", timeout: Double = 30) -> JSONValue? {
        waitFor(timeout: timeout) {
            $0["callback"]?.stringValue == type && $0["tag"]?.stringValue == tag && $0["client"]?.stringValue == client
        }
    }

    /// Waits for the message's END or CANCEL callback; which one came (nil on timeout).
    func waitForTerminalCallback(tag: String, client: String = "a", timeout: Double = 30) -> String? {
        waitFor(timeout: timeout) {
            ["end", "cancel"].contains($0["callback"]?.stringValue ?? "") && $0["tag"]?.stringValue == tag
                && $0["client"]?.stringValue == client
        }?["callback"]?.stringValue
    }

    /// The callbacks message `tag` of `client` received, in order (`index_marks:NAME` for a mark).
    func callbacks(tag: String, client: String = "a") -> [String] {
        lines.filter { $0["callback"] != nil && $0["tag"]?.stringValue == tag && $0["client"]?.stringValue == client }
            .map(Self.describe)
    }

    /// The events the socket delivered about message `messageID` of `client`, in order, before
    /// python3-speechd routed them (same form as `callbacks`).
    func wireEvents(messageID: Int, client: String = "a") -> [String] {
        lines.filter { $0["wire"] != nil && $0["msg_id"]?.intValue == messageID && $0["client"]?.stringValue == client }
            .map(Self.describe)
    }

    private static func describe(_ line: JSONValue) -> String {
        let type = line["callback"]?.stringValue ?? line["wire"]?.stringValue ?? "?"
        return line["mark"]?.stringValue.map { "\(type):\($0)" } ?? type
    }

    /// Closes standard input (the driver closes its clients and exits); its exit status.
    func finish() -> Int32 {
        driver.finishInput()
        return driver.finish().status
    }

    /// What the driver wrote to stderr so far (tracebacks).
    var stderrText: String { errors.currentText() }

    /// Kills the driver with SIGKILL (its clients close nothing themselves: the kernel closes
    /// their sockets) and reaps it.
    func kill() {
        Glibc.kill(driver.process.processIdentifier, SIGKILL)
        _ = driver.finish(timeout: 10)
    }
}

/// The driver did not answer, or python3-speechd raised.
struct DriverError: Error, CustomStringConvertible {
    let what: String
    let stderr: String
    var description: String { stderr.isEmpty ? what : "\(what); its stderr:\n\(stderr)" }
}

extension JSONValue {
    /// The integer, if this is one.
    var intValue: Int? {
        if case .integer(let value) = self { return Int(value) }
        return nil
    }
}
