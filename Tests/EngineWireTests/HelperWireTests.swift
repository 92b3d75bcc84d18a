// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import EngineWire
import Foundation
import Glibc
import POSIXThreads
import TestSupport
import Testing

@Suite("The daemon's pipes to its espeak-ng helper")
struct HelperWireTests {
    static let request = SynthesisRequest(
        voice: "de", rate: 210, pitch: -1, volume: 200, punctuation: .some, punctuationList: "#$%",
        ssml: true, text: "<speak>Grüße 👋</speak>"
    )

    static let messages: [EngineMessage] = [
        .ready(
            sampleRate: 22_050,
            voices: [
                EngineVoice(
                    name: "en-us", identifier: "gmw/en-US", languages: ["en-us", "en"], gender: 1,
                    title: "English_(America)"), EngineVoice(name: "cmn", languages: []),
            ]),
        .initializationFailed(code: -1),
        .voiceSelected,
        .voiceUnknown,
        .samples([0, 1, -1, .max, .min, 12_345]),
        .samples([]),
        .word(sample: 4_410, textPosition: 7, length: 5),
        .mark(sample: .max, name: "here"),
        .done(status: 0),
        .done(status: 2),
    ]

    @Test("requests and messages read back as written, one after another through a real pipe")
    func roundTrip() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let reader = FrameChannel(fd: ends[0])
        let writer = FrameChannel(fd: ends[1])
        // Small enough for the pipe's buffer: everything is written before it is read.
        #expect(writer.write(EngineRequest.synthesize(Self.request).frame + EngineRequest.abort.frame))
        for message in Self.messages { #expect(writer.write(message.frame)) }
        close(ends[1])

        let first = try #require(reader.readFrame())
        #expect(try EngineRequest(tag: first.tag, payload: first.payload) == .synthesize(Self.request))
        let second = try #require(reader.readFrame())
        #expect(try EngineRequest(tag: second.tag, payload: second.payload) == .abort)
        for message in Self.messages {
            let frame = try #require(reader.readFrame())
            #expect(try EngineMessage(tag: frame.tag, payload: frame.payload) == message)
        }
        #expect(reader.readFrame() == nil, "end of stream after the last frame")
    }

    /// Runs `body` on a thread of its own (not a pool's, which the writer may hold) and waits
    /// for its result: the reading end of a pipe a chapter is written into.
    final class ReaderThread<Result>: @unchecked Sendable {
        private let done = Latch()
        private var result: Result?

        init(_ body: @escaping @Sendable () -> Result) {
            Thread { [self] in
                result = body()
                done.open()
            }.start()
        }

        func join() -> Result {
            done.wait()
            return result!
        }
    }

    /// The bytes `write(to:)` puts on a pipe, read back whole after the writer closed it. A
    /// chapter does not fit a pipe's buffer, so the reader drains it meanwhile.
    static func bytesWritten(_ request: EngineRequest) throws -> [UInt8] {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let reader = ReaderThread { () -> [UInt8] in
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { return bytes }
                bytes += chunk[..<count]
            }
        }
        #expect(request.write(to: FrameChannel(fd: writeEnd)))
        close(writeEnd)
        return reader.join()
    }

    @Test(
        "a request written from its text's own storage is its frame, byte for byte, and reads back, up to a chapter",
        .onBlockingThreads, arguments: [1, 70_000, 1_048_576]
    )
    func writtenInPlace(_ length: Int) throws {
        var request = Self.request
        request.text = String(repeating: "Grüße 👋 ", count: length / 11 + 1)
        let synthesize = EngineRequest.synthesize(request)
        #expect(try Self.bytesWritten(synthesize) == synthesize.frame)
        #expect(try Self.bytesWritten(.abort) == EngineRequest.abort.frame)
        // And it reads back as the request, through a real pipe.
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let reader = ReaderThread { () -> EngineRequest? in
            FrameChannel(fd: readEnd).readFrame().flatMap { try? EngineRequest(tag: $0.tag, payload: $0.payload) }
        }
        #expect(synthesize.write(to: FrameChannel(fd: writeEnd)))
        close(writeEnd)
        #expect(reader.join() == synthesize)
    }

    @Test("the samples frame written straight from a buffer equals the message's, byte for byte")
    func samplesFrame() {
        let samples: [Int16] = [3, -3, 256, -256]
        #expect(
            samples.withUnsafeBufferPointer { EngineMessage.samplesFrame($0) } == EngineMessage.samples(samples).frame)
        // Tag P, length 8, then each sample little-endian.
        #expect(EngineMessage.samples(samples).frame == [0x50, 8, 0, 0, 0, 3, 0, 0xFD, 0xFF, 0x00, 0x01, 0x00, 0xFF])
    }

    @Test("truncated or unknown frames are refused, not misread")
    func malformed() {
        let word = EngineMessage.word(sample: 1, textPosition: 2, length: 3).frame
        #expect(throws: EngineWireError.self) { try EngineMessage(tag: word[0], payload: word[5..<(word.count - 1)]) }
        #expect(throws: EngineWireError.self) { try EngineMessage(tag: 0x7A, payload: []) }
        #expect(throws: EngineWireError.self) {
            try EngineRequest(tag: EngineMessage.voiceSelected.frame[0], payload: [])
        }
        let odd = EngineMessage.samples([1]).frame
        #expect(throws: EngineWireError.self) { try EngineMessage(tag: odd[0], payload: odd[5..<6]) }
    }
}
