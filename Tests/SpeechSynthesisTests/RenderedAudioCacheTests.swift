// SPDX-License-Identifier: GPL-3.0-or-later
import EngineWire
import Testing

@testable import SpeechSynthesis

/// The speech cache's invalidation: a voice's files replaced drop its renderings, and a rendering
/// that was under way meanwhile (possibly in the old files) is not kept.
@Suite("RenderedAudioCache: forgetting a voice")
struct RenderedAudioCacheTests {
    private let model = "/voices/en_US-joe-medium.onnx"

    private func key(_ text: String, voice: String) -> RenderedAudioCache.Key {
        RenderedAudioCache.Key(
            SynthesisRequest(
                voice: voice, rate: 175, pitch: 50, volume: 100, punctuation: .none, punctuationList: "", ssml: false,
                text: text
            ))
    }

    private let audio = RenderedAudio(sampleRate: 22_050, samples: [1, 2, 3], events: [.samples(end: 3)])

    @Test("forget(voices:) drops only that voice's renderings")
    func forgetDropsTheVoice() {
        let cache = RenderedAudioCache(limit: 1 << 20)
        cache.store(audio, for: key("Saved", voice: model), renderedSince: cache.forgetCount)
        cache.store(audio, for: key("Saved", voice: "/voices/other.onnx"), renderedSince: cache.forgetCount)
        cache.forget(voices: [model])
        #expect(cache.audio(for: key("Saved", voice: model)) == nil)
        #expect(cache.audio(for: key("Saved", voice: "/voices/other.onnx")) != nil)
    }

    @Test("a rendering begun before a forget is not stored after it; one begun after is")
    func renderingUnderWayIsNotKept() {
        let cache = RenderedAudioCache(limit: 1 << 20)
        let begun = cache.forgetCount
        cache.forget(voices: [model])
        cache.store(audio, for: key("Download complete.", voice: model), renderedSince: begun)
        #expect(cache.audio(for: key("Download complete.", voice: model)) == nil)
        #expect(cache.usage.entries == 0 && cache.usage.bytes == 0)
        cache.store(audio, for: key("Download complete.", voice: model), renderedSince: cache.forgetCount)
        #expect(cache.audio(for: key("Download complete.", voice: model)) != nil)
    }
}
