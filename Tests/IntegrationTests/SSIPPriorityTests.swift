// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// shared/ssip.md §4 across two python3-speechd clients: the priority rules are server-wide. A
/// native `speech` subscription gives the order in which the dispatcher started and ended the
/// messages (an SSIP message id is its post's seq), one stream for both clients.
@Suite("SSIP: priorities across two python3-speechd clients", .daemonTimeLimit, .onBlockingThreads)
struct SSIPPriorityTests {
    /// A daemon, its speech watcher, and python3-speechd clients `a` and `b` at priorities
    /// `first` and `second`.
    private final class TwoClients {
        let ssip: SSIPDaemon
        let driver: SpeechdDriver
        let watcher: LineClient

        init(_ first: String, _ second: String) throws {
            ssip = try SSIPDaemon()
            watcher = try speechWatcher(ssip.daemon)
            driver = try SpeechdDriver(ssip)
            try driver.connect("a")
            try driver.connect("b")
            try driver.call("set_priority", client: "a", .string(first))
            try driver.call("set_priority", client: "b", .string(second))
        }
    }

    @Test("notification while a message speaks: discarded at once (CANCEL, never BEGIN); text waits for the message")
    func notificationDroppedTextWaits() throws {
        let clients = try TwoClients("message", "notification")
        let (driver, watcher) = (clients.driver, clients.watcher)
        let long = try driver.speak(interruptibleText, client: "a", tag: "long")
        try #require(driver.waitForCallback("begin", tag: "long", client: "a") != nil)
        let dropped = try driver.speak("Dropped notification.", client: "b", tag: "note")
        #expect(driver.waitForTerminalCallback(tag: "note", client: "b") == "cancel")
        #expect(driver.callbacks(tag: "note", client: "b") == ["cancel"])
        try driver.call("set_priority", client: "b", .string("text"))
        let waiting = try driver.speak("Waiting text.", client: "b", tag: "text")
        #expect(driver.waitForTerminalCallback(tag: "long", client: "a") == "end")
        #expect(driver.waitForTerminalCallback(tag: "text", client: "b") == "end")
        #expect(driver.callbacks(tag: "text", client: "b") == ["begin", "end"])
        #expect(driver.callbacks(tag: "long", client: "a") == ["begin", "end"])
        try #require(watcher.waitForSpeech("started", seq: waiting) != nil)
        #expect(!watcher.speechStates.contains("started \(dropped)"), "the notification never started")
        withExtendedLifetime(clients) {}
        #expect(watcher.speechState("finished \(long)", precedes: "started \(waiting)"), "\(watcher.speechStates)")
    }

    @Test("text while text speaks: the older text is cancelled and the newer one spoken")
    func textSupersedesOtherClientsText() throws {
        let clients = try TwoClients("text", "text")
        let (driver, watcher) = (clients.driver, clients.watcher)
        let old = try driver.speak(interruptibleText, client: "a", tag: "old")
        try #require(driver.waitForCallback("begin", tag: "old", client: "a") != nil)
        let new = try driver.speak("Newer text.", client: "b", tag: "new")
        #expect(driver.waitForTerminalCallback(tag: "old", client: "a") == "cancel")
        #expect(driver.waitForTerminalCallback(tag: "new", client: "b") == "end")
        #expect(driver.callbacks(tag: "old", client: "a") == ["begin", "cancel"])
        #expect(driver.callbacks(tag: "new", client: "b") == ["begin", "end"])
        try #require(watcher.waitForSpeech("finished", seq: new) != nil)
        withExtendedLifetime(clients) {}
        #expect(watcher.speechState("finished \(old)", precedes: "started \(new)"), "\(watcher.speechStates)")
    }

    @Test("important while text speaks: the text is cancelled and the important message spoken")
    func importantInterruptsText() throws {
        let clients = try TwoClients("text", "important")
        let (driver, watcher) = (clients.driver, clients.watcher)
        let text = try driver.speak(interruptibleText, client: "a", tag: "text")
        try #require(driver.waitForCallback("begin", tag: "text", client: "a") != nil)
        let important = try driver.speak("Important.", client: "b", tag: "important")
        #expect(driver.waitForTerminalCallback(tag: "text", client: "a") == "cancel")
        #expect(driver.waitForTerminalCallback(tag: "important", client: "b") == "end")
        #expect(driver.callbacks(tag: "important", client: "b") == ["begin", "end"])
        try #require(watcher.waitForSpeech("finished", seq: important) != nil)
        withExtendedLifetime(clients) {}
        #expect(watcher.speechState("finished \(text)", precedes: "started \(important)"), "\(watcher.speechStates)")
    }

    @Test("message while a message speaks: it waits; both are spoken to the end, one after the other")
    func messageWaitsForMessage() throws {
        let clients = try TwoClients("message", "message")
        let (driver, watcher) = (clients.driver, clients.watcher)
        let first = try driver.speak("The first message is spoken to its end.", client: "a", tag: "first")
        try #require(driver.waitForCallback("begin", tag: "first", client: "a") != nil)
        let second = try driver.speak("Then the second.", client: "b", tag: "second")
        #expect(driver.waitForTerminalCallback(tag: "first", client: "a") == "end")
        #expect(driver.waitForTerminalCallback(tag: "second", client: "b") == "end")
        #expect(driver.callbacks(tag: "first", client: "a") == ["begin", "end"])
        #expect(driver.callbacks(tag: "second", client: "b") == ["begin", "end"])
        try #require(watcher.waitForSpeech("finished", seq: second) != nil)
        withExtendedLifetime(clients) {}
        #expect(
            watcher.speechStates == [
                "started \(first)", "finished \(first)", "started \(second)", "finished \(second)",
            ])
    }
}
