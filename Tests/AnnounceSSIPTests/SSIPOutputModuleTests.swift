import AnnounceProtocol
import POSIXThreads
import SSIPProtocol
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore
@testable import AnnounceSSIP

@Suite("SSIP output modules: espeak-ng always, piper once its helper or a Piper voice is installed")
struct SSIPOutputModuleTests {
    static let espeak = [
        VoiceDescription(name: "en-us", languages: ["en-us", "en"]),
        VoiceDescription(name: "de", languages: ["de"]),
    ]
    static let piper = [
        VoiceDescription(
            name: "de_de-fake-low", identifier: "/v/de_DE-fake-low.onnx", languages: ["de-de", "de"], engine: "piper",
            quality: "low", capabilities: EngineCapabilities()),
        VoiceDescription(
            name: "en_us-fake-medium", identifier: "/v/en_US-fake-medium.onnx", languages: ["en-us", "en"],
            engine: "piper", quality: "medium", capabilities: EngineCapabilities()),
    ]

    @Test(
        "no Piper helper or voice: SET OUTPUT_MODULE piper or festival is 216, GET answers it, messages speak as if none were set"
    )
    func piperNeedsAVoiceOrItsHelper() throws {
        let installed = LockedValue<[VoiceDescription]>([])
        let frontEnd = SSIPFrontEnd(lookForVoices: { Self.espeak + installed.withLock { $0 } })
        var probe = DecoderProbe(frontEnd)
        #expect(probe.send("LIST OUTPUT_MODULES") == ["250-espeak-ng|250 OK MODULE LIST SENT|"])
        #expect(probe.send("SET self OUTPUT_MODULE piper") == ["216 OK OUTPUT MODULE SET|"])
        #expect(probe.send("GET OUTPUT_MODULE") == ["251-piper|251 OK GET RETURNED|"])
        #expect(probe.send("SET self OUTPUT_MODULE festival") == ["216 OK OUTPUT MODULE SET|"])
        #expect(probe.send("GET OUTPUT_MODULE") == ["251-festival|251 OK GET RETURNED|"])
        let unbound = try #require(message(probe.read("SPEAK\r\nhello\r\n.\r\n").inputs.last))
        #expect(unbound.engine == nil, "a module announced does not have speaks as if none were set")
        installed.withLock { $0 = Self.piper }
        frontEnd.voicesChanged()
        #expect(probe.send("LIST OUTPUT_MODULES") == ["250-espeak-ng|250-piper|250 OK MODULE LIST SENT|"])
        #expect(probe.send("SET self OUTPUT_MODULE piper") == ["216 OK OUTPUT MODULE SET|"])
        #expect(probe.send("GET OUTPUT_MODULE") == ["251-piper|251 OK GET RETURNED|"])
    }

    @Test(
        "with Piper's helper installed and no voice: piper is listed and set, lists no voices, and its messages carry espeak-ng's variant"
    )
    func piperHelperWithoutVoices() throws {
        let helperInstalled = LockedValue(false)
        let frontEnd = SSIPFrontEnd(
            lookForVoices: { Self.espeak },
            lookForEngines: { helperInstalled.withLock { $0 } ? ["espeak-ng", "piper"] : ["espeak-ng"] }
        )
        var probe = DecoderProbe(frontEnd)
        #expect(probe.send("SET self OUTPUT_MODULE piper") == ["216 OK OUTPUT MODULE SET|"])
        helperInstalled.withLock { $0 = true }
        frontEnd.voicesChanged()
        #expect(probe.send("LIST OUTPUT_MODULES") == ["250-espeak-ng|250-piper|250 OK MODULE LIST SENT|"])
        #expect(probe.send("SET self OUTPUT_MODULE PIPER") == ["216 OK OUTPUT MODULE SET|"])
        #expect(probe.send("GET OUTPUT_MODULE") == ["251-piper|251 OK GET RETURNED|"])
        #expect(probe.send("LIST SYNTHESIS_VOICES") == ["249 OK VOICE LIST SENT|"])
        #expect(probe.send("SET self OUTPUT_MODULE festival") == ["216 OK OUTPUT MODULE SET|"])
        #expect(probe.send("SET self OUTPUT_MODULE PIPER") == ["216 OK OUTPUT MODULE SET|"])
        _ = probe.send("SET self VOICE_TYPE FEMALE1")
        let bound = try #require(message(probe.read("SPEAK\r\nhello\r\n.\r\n").inputs.last))
        #expect(bound.engine == "piper", "bound to piper, so a Piper voice installed later speaks it")
        #expect(
            bound.options(testDefaults).voice == testDefaults.voice + "+f1",
            "espeak-ng speaks it, with VOICE_TYPE's variant")
    }

    @Test("LIST SYNTHESIS_VOICES lists the voices of the connection's module")
    func voicesPerModule() {
        let frontEnd = SSIPFrontEnd(voices: Self.espeak + Self.piper)
        var probe = DecoderProbe(frontEnd)
        #expect(
            probe.send("LIST SYNTHESIS_VOICES") == ["249-en-us\ten-US\tnone|249-de\tde\tnone|249 OK VOICE LIST SENT|"])
        _ = probe.send("SET self OUTPUT_MODULE PIPER")
        #expect(
            probe.send("LIST SYNTHESIS_VOICES") == [
                "249-de_de-fake-low\tde-DE\tnone|249-en_us-fake-medium\ten-US\tnone|249 OK VOICE LIST SENT|"
            ])
        _ = probe.send("SET self OUTPUT_MODULE espeak-ng")
        #expect(probe.send("LIST SYNTHESIS_VOICES").first?.hasPrefix("249-en-us") == true)
    }

    @Test(
        "a message of a connection set to piper is bound to piper, without espeak-ng's variant; one set to nothing is the daemon's choice"
    )
    func messagesCarryTheModule() throws {
        let frontEnd = SSIPFrontEnd(voices: Self.espeak + Self.piper)
        var probe = DecoderProbe(frontEnd)
        let plain = try #require(message(probe.read("SPEAK\r\nhello\r\n.\r\n").inputs.last))
        #expect(plain.engine == nil)
        _ = probe.send("SET self OUTPUT_MODULE piper")
        _ = probe.send("SET self VOICE_TYPE FEMALE1")
        _ = probe.send("SET self SYNTHESIS_VOICE de")
        let bound = try #require(message(probe.read("SPEAK\r\nhello\r\n.\r\n").inputs.last))
        #expect(bound.engine == "piper")
        #expect(
            bound.options(testDefaults).voice == nil,
            "espeak-ng's de is not a Piper voice, and FEMALE1's +f1 is espeak-ng's")
    }

    @Test(
        "the default module is the language-fallback engine's, asked of its voices' capabilities, not of its name: GET before SET, the first listed, its variants"
    )
    func defaultModuleIsTheFallbackEngines() throws {
        var espeakProbe = DecoderProbe(SSIPFrontEnd(voices: Self.espeak + Self.piper))
        #expect(espeakProbe.send("GET OUTPUT_MODULE") == ["251-espeak-ng|251 OK GET RETURNED|"])
        _ = espeakProbe.send("SET self VOICE_TYPE FEMALE1")
        let withVariant = try #require(message(espeakProbe.read("SPEAK\r\nhello\r\n.\r\n").inputs.last))
        #expect(withVariant.options(testDefaults).voice == testDefaults.voice + "+f1")

        let tone = VoiceDescription(
            name: "tone", languages: ["en"], engine: "tone",
            capabilities: EngineCapabilities(voiceVariants: false, languageFallback: true))
        var probe = DecoderProbe(SSIPFrontEnd(voices: Self.piper + [tone]))
        #expect(probe.send("GET OUTPUT_MODULE") == ["251-tone|251 OK GET RETURNED|"])
        #expect(probe.send("LIST OUTPUT_MODULES") == ["250-tone|250-piper|250 OK MODULE LIST SENT|"])
        #expect(probe.send("LIST SYNTHESIS_VOICES") == ["249-tone\ten\tnone|249 OK VOICE LIST SENT|"])
        _ = probe.send("SET self VOICE_TYPE FEMALE1")
        let plain = try #require(message(probe.read("SPEAK\r\nhello\r\n.\r\n").inputs.last))
        #expect(plain.options(testDefaults).voice == nil, "the default module's voices take no variant")
    }
}
