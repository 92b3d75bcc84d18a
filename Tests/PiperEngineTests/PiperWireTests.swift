// SPDX-License-Identifier: GPL-3.0-or-later
import EngineWire
import Glibc
import Testing

@Suite("The Piper helper's messages on the helper wire")
struct PiperWireTests {
    static let requests: [EngineRequest] = [
        .prepare(voice: "/usr/share/announced/voices/en_US-joe-medium.onnx"),
        .prepare(voice: ""),
        .abort,
    ]

    static let messages: [EngineMessage] = [
        .voicePrepared(status: 0, message: ""),
        .voicePrepared(status: 1, message: "/x.onnx.json cannot be read: No such file or directory"),
        .voiceFailed(message: "Grüße 👋 is not a voice"),
        .done(status: 0),
    ]

    @Test("prepare, voicePrepared and voiceFailed read back as written through a real pipe, between the others")
    func roundTrip() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let reader = FrameChannel(fd: ends[0])
        let writer = FrameChannel(fd: ends[1])
        for request in Self.requests { #expect(writer.write(request.frame)) }
        for message in Self.messages { #expect(writer.write(message.frame)) }
        close(ends[1])
        for request in Self.requests {
            let frame = try #require(reader.readFrame())
            #expect(try EngineRequest(tag: frame.tag, payload: frame.payload) == request)
        }
        for message in Self.messages {
            let frame = try #require(reader.readFrame())
            #expect(try EngineMessage(tag: frame.tag, payload: frame.payload) == message)
        }
        #expect(reader.readFrame() == nil)
    }

    @Test("the new frames have tags of their own and the exact bytes documented")
    func bytes() {
        // L, length 5, the string (length 1, "v").
        #expect(EngineRequest.prepare(voice: "v").frame == [0x4C, 5, 0, 0, 0, 1, 0, 0, 0, 0x76])
        // K, length 8: status 1, empty message.
        #expect(
            EngineMessage.voicePrepared(status: 1, message: "").frame == [0x4B, 8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])
        // F, length 4: empty message.
        #expect(EngineMessage.voiceFailed(message: "").frame == [0x46, 4, 0, 0, 0, 0, 0, 0, 0])
        // The espeak helper's frames keep theirs.
        #expect(EngineRequest.abort.frame == [0x41, 0, 0, 0, 0])
        #expect(EngineMessage.voiceSelected.frame == [0x4F, 0, 0, 0, 0])
    }

    @Test("a cut-short prepare, voicePrepared or voiceFailed is refused, not misread")
    func truncated() {
        let prepare = EngineRequest.prepare(voice: "/a.onnx").frame
        #expect(throws: EngineWireError.self) {
            try EngineRequest(tag: prepare[0], payload: prepare[5..<(prepare.count - 1)])
        }
        let prepared = EngineMessage.voicePrepared(status: 0, message: "loaded").frame
        #expect(throws: EngineWireError.self) { try EngineMessage(tag: prepared[0], payload: prepared[5..<8]) }
        let failed = EngineMessage.voiceFailed(message: "no").frame
        #expect(throws: EngineWireError.self) {
            try EngineMessage(tag: failed[0], payload: failed[5..<(failed.count - 1)])
        }
    }
}
