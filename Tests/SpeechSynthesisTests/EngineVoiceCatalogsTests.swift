// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Foundation
import POSIXThreads
import Testing

@testable import SpeechSynthesis

/// The engines' installed-voice catalogs read as one (`EngineVoiceCatalogs`).
struct EngineVoiceCatalogsTests {
    /// A catalog that is current, and stopped, only when the test says.
    final class HeldCatalog: InstalledVoiceCatalog, @unchecked Sendable {
        let voices: [VoiceDescription]
        private let lock = ConditionLock()
        private var waiting: [@Sendable () -> Void] = []
        private var observers: [@Sendable ([VoiceDescription]) -> Void] = []

        init(_ names: [String], engine: String) {
            voices = names.map { VoiceDescription(name: $0, languages: ["en"], engine: engine) }
        }

        func onChange(_ observer: @escaping @Sendable ([VoiceDescription]) -> Void) {
            lock.withLock { observers.append(observer) }
        }
        func startWatching() {}
        func whenCurrent(_ current: @escaping @Sendable () -> Void) { lock.withLock { waiting.append(current) } }
        func stopWatching(then stopped: @escaping @Sendable () -> Void) { lock.withLock { waiting.append(stopped) } }

        /// Calls what waits for this catalog.
        func settle() {
            let settled = lock.withLock {
                defer { waiting.removeAll() }
                return waiting
            }
            for waiter in settled { waiter() }
        }
        /// Tells the observers that the voices changed.
        func change() {
            for observer in lock.withLock({ observers }) { observer(voices) }
        }
    }

    final class Count: @unchecked Sendable {
        private let lock = ConditionLock()
        private var value = 0
        private var lists: [[String]] = []
        func add(_ list: [VoiceDescription] = []) {
            lock.withLock {
                value += 1
                lists.append(list.map(\.name))
            }
        }
        var calls: Int { lock.withLock { value } }
        var lastList: [String]? { lock.withLock { lists.last } }
    }

    @Test("the voices are each engine's in the engines' order; current and stopped once every catalog is")
    func currentOnceEveryCatalogIs() {
        let first = HeldCatalog(["a1", "a2"], engine: "a")
        let second = HeldCatalog(["b1"], engine: "b")
        let catalogs = EngineVoiceCatalogs([first, second])
        #expect(catalogs.voices.map(\.name) == ["a1", "a2", "b1"])

        let current = Count()
        catalogs.whenCurrent { current.add() }
        first.settle()
        #expect(current.calls == 0, "the second catalog is still settling")
        second.settle()
        #expect(current.calls == 1)

        let stopped = Count()
        catalogs.stopWatching { stopped.add() }
        second.settle()
        #expect(stopped.calls == 0)
        first.settle()
        #expect(stopped.calls == 1)
    }

    @Test("a change to one engine's voices is told with every engine's; no catalogs are current at once")
    func changesCarryEveryVoice() {
        let first = HeldCatalog(["a1"], engine: "a")
        let second = HeldCatalog(["b1"], engine: "b")
        let catalogs = EngineVoiceCatalogs([first, second])
        let changes = Count()
        catalogs.onChange { changes.add($0) }
        second.change()
        #expect(changes.calls == 1 && changes.lastList == ["a1", "b1"])

        let none = EngineVoiceCatalogs([])
        let current = Count()
        none.whenCurrent { current.add() }
        none.stopWatching { current.add() }
        #expect(current.calls == 2 && none.voices.isEmpty)
    }

    @Test("the daemon's catalog is its engines' own: Piper's, and none for espeak-ng")
    func eachEngineOwnsItsCatalog() {
        let espeak = EspeakEngine().makeInstalledVoiceCatalog(environment: [:], logger: TestAudio.logger) { _ in }
        #expect(espeak == nil)
        let piper = PiperEngine().makeInstalledVoiceCatalog(
            environment: ["HOME": TestAudio.temporaryDirectory(), "ANNOUNCED_SYSTEM_VOICES": ""],
            logger: TestAudio.logger
        ) { _ in }
        #expect(piper is PiperVoiceCatalog)
        #expect(piper?.voices.isEmpty == true, "no voice installed in an empty home")
    }
}
