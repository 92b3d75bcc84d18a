import AnnounceProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@Suite("Piper voices in the dispatcher: names, rescans and voice_for_language")
@MainActor
struct VoicePreferenceTests {
    static let joe = VoiceDescription(
        name: "en_us-joe-medium", identifier: "/voices/en_US-joe-medium.onnx", languages: ["en-us", "en"],
        title: "joe (medium)",
        engine: "piper", quality: "medium", capabilities: EngineCapabilities()
    )

    @Test(
        "a post naming a voice installed after the start makes the backend look again, and speaks with the model's path"
    )
    func rescansForAnUnknownName() {
        let h = Harness()
        h.backend.installed.withLock { $0 = [Self.joe] }
        let before = h.backend.rescans.withLock { $0 }
        h.send(announce(1, "Hello", #","voice":"en_US-joe-medium""#))
        #expect(h.backend.rescans.withLock { $0 } == before + 1)
        #expect(h.backend.spoken.last?.voice == "/voices/en_US-joe-medium.onnx")
        // Known now: the next post does not look again.
        h.engineFinishes()
        h.send(announce(2, "Hello", #","voice":"en_us-joe-medium+f3""#))
        #expect(h.backend.rescans.withLock { $0 } == before + 1)
        #expect(
            h.backend.spoken.last?.voice == "/voices/en_US-joe-medium.onnx",
            "a variant is espeak-ng's; a Piper voice ignores it")
    }

    @Test("`voices` looks again and lists the new voice with its engine and quality")
    func voicesListsEngine() throws {
        let h = Harness()
        h.backend.installed.withLock { $0 = [Self.joe] }
        h.send(#"{"op":"voices","id":1,"lang":"en"}"#)
        guard case .ok(_, let fields)? = h.sink(1).lines(for: 1).first, let list = fields["voices"]?.arrayValue else {
            Issue.record("\(h.sink(1).lines(for: 1))")
            return
        }
        let joe = try #require(list.compactMap(\.objectValue).first { $0["name"] == .string("en_us-joe-medium") })
        #expect(joe["engine"] == .string("piper") && joe["quality"] == .string("medium"))
        #expect(
            list.compactMap(\.objectValue).first { $0["name"] == .string("en-us") }?["engine"] == .string("espeak-ng"))
    }

    @Test(
        "voice_for_language picks the voice for a post with only `lang`, by tag then primary subtag; other languages keep theirs"
    )
    func preferenceDecides() {
        let h = Harness { $0.voicePreferences = VoicePreferences([(language: "en", voice: "en_us-joe-medium")]) }
        h.backend.installed.withLock { $0 = [Self.joe] }
        h.dispatcher.refreshVoices()
        for (id, lang, expected) in [
            (1, "en", "/voices/en_US-joe-medium.onnx"), (2, "en-GB", "/voices/en_US-joe-medium.onnx"), (3, "de", "de"),
        ] {
            h.send(announce(id, "Hello", #","lang":"\#(lang)""#))
            #expect(h.backend.spoken.last?.voice == expected, "lang \(lang)")
            h.engineFinishes()
        }
        // A post with neither voice nor lang speaks with the default voice.
        h.send(announce(4, "Hello"))
        #expect(h.backend.spoken.last?.voice == "en-us")
    }

    @Test("a more exact preference wins over the primary subtag's; a preferred voice not installed is passed over")
    func preferenceOrder() {
        let h = Harness {
            $0.voicePreferences = VoicePreferences([
                (language: "en", voice: "en_us-joe-medium"), (language: "en_GB", voice: "en-gb"),
                (language: "de", voice: "de_de-missing-low"),
            ])
        }
        h.backend.installed.withLock { $0 = [Self.joe] }
        h.dispatcher.refreshVoices()
        h.send(announce(1, "Hello", #","lang":"en-gb""#))
        #expect(h.backend.spoken.last?.voice == "gmw/en")
        h.engineFinishes()
        h.send(announce(2, "Hallo", #","lang":"de""#))
        #expect(h.backend.spoken.last?.voice == "de")
        #expect(
            h.sink(1).lines(for: 2).allSatisfy {
                if case .queued(_, _, let warning?) = $0 { warning.isEmpty } else { true }
            })
    }

    @Test(
        "a message bound to an engine speaks with that engine's voice for its language, preferred first, else its first voice"
    )
    func messageBoundToAnEngine() {
        let german = VoiceDescription(
            name: "de_de-fake-low", identifier: "/voices/de.onnx", languages: ["de-de", "de"], engine: "piper",
            capabilities: EngineCapabilities())
        let h = Harness { $0.voicePreferences = VoicePreferences([(language: "en", voice: "en-us")]) }
        h.backend.installed.withLock { $0 = [german, Self.joe] }
        h.dispatcher.refreshVoices()
        func speak(_ id: Int64, engine: String, lang: String?, voice: String? = nil) -> String? {
            let message = MessagePost(id: .integer(id), text: "Hi", priority: .message, engine: engine) { _ in
                var options = SpeechOptions()
                options.lang = lang
                options.voice = voice
                return options
            }
            h.dispatcher.transaction { $0.receive([.message(message)], from: 1) }
            h.turns.run()
            defer { h.engineFinishes() }
            return h.backend.spoken.last?.voice
        }
        #expect(speak(1, engine: "piper", lang: "de") == "/voices/de.onnx")
        #expect(
            speak(2, engine: "piper", lang: nil) == "/voices/en_US-joe-medium.onnx",
            "the default voice's language, en-us")
        #expect(
            speak(3, engine: "piper", lang: "en") == "/voices/en_US-joe-medium.onnx",
            "the preference is espeak-ng's, so not taken")
        #expect(speak(4, engine: "piper", lang: "fi") == "/voices/de.onnx", "no Piper voice speaks Finnish: the first")
        #expect(
            speak(5, engine: "piper", lang: "de", voice: "de") == "/voices/de.onnx", "espeak-ng's de is not Piper's")
        #expect(speak(6, engine: "espeak-ng", lang: "en", voice: nil) == "en-us")
    }

    @Test(
        "a message its front-end already answered queued (python3-speechd's speak) is bound to its engine too, a voice installed since the last look included"
    )
    func queuedMessageBoundToAnEngine() {
        let h = Harness()
        // Installed after the dispatcher last looked: the message bound to piper looks again.
        h.backend.installed.withLock { $0 = [Self.joe] }
        let message = MessagePost(id: .integer(1), text: "Hi", priority: .message, engine: "piper") { _ in
            SpeechOptions()
        }
        h.dispatcher.transaction {
            $0.receive([.queuedMessage(message, seq: h.dispatcher.reserveSequenceNumber())], from: 1)
        }
        h.turns.run()
        #expect(
            h.backend.spoken.last?.voice == "/voices/en_US-joe-medium.onnx",
            "it spoke with espeak-ng's default voice before")
        h.engineFinishes()
    }
}
