import AnnounceProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

@Suite("Voice names: one resolution for set, posts and start")
@MainActor
struct VoiceResolutionTests {
    @Test(
        "a language name, a file name, a title or a name with a variant selects the voice; the synthesizer gets its file name",
        arguments: [
            ("en-gb", "gmw/en", "en"), ("en_GB", "gmw/en", "en"), ("gmw/en", "gmw/en", "en"),
            ("GMW/EN", "gmw/en", "en"),
            ("en", "gmw/en", "en"), ("english_(great_britain)", "gmw/en", "en"), ("en-gb+f3", "gmw/en+f3", "en+f3"),
            ("fr", "fr-fr", "fr-fr"), ("en-us", "en-us", "en-us"),
        ])
    func resolves(name: String, synthesizer: String, reported: String) {
        let h = Harness()
        h.send(#"{"op":"set","id":1,"voice":"\#(name)"}"#)
        #expect(h.sink(1).lines(for: 1) == [.ok(id: 1, fields: JSONObject())])
        h.send(announce(2, "Hello"))
        #expect(h.backend.spoken.last?.voice == synthesizer)
        h.send(announce(3, "Hello", #","voice":"\#(name)""#))
        h.engineFinishes()
        h.engineStarts()
        #expect(h.backend.spoken.last?.voice == synthesizer)
        #expect(h.sink(1).lines(for: 3).contains(.started(id: 3, seq: 2, text: "Hello", voice: reported)))
    }

    @Test("an unknown name is refused where it is given: at set and in a post, naming the field")
    func refusesUnknown() {
        let h = Harness()
        h.send(#"{"op":"set","id":1,"voice":"gmw/xx"}"#, announce(2, "Hi", #","voice":"+f3""#))
        for id in [1, 2] {
            guard case .error(_, .invalid, let message)? = h.sink(1).lines(for: RequestID.integer(Int64(id))).first
            else {
                Issue.record("request \(id): \(h.sink(1).lines(for: RequestID.integer(Int64(id))))")
                continue
            }
            #expect(message.contains("`voice`"))
        }
        #expect(h.dispatcher.statusReport.voice == "en-us")
    }
}
