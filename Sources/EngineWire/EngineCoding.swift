// SPDX-License-Identifier: GPL-3.0-or-later
/// Frames: a tag byte, a 4-byte little-endian payload length, the payload. Integers are
/// little-endian; strings are a 4-byte length and UTF-8 bytes. Samples are copied as they lie in
/// memory, which is little-endian on every platform announced builds for.
#if !_endian(little)
    #error("EngineWire copies samples as little-endian memory")
#endif
enum EngineWireTag: UInt8 {
    case synthesize = 0x53 // S
    case abort = 0x41 // A
    case ready = 0x52 // R
    case initializationFailed = 0x45 // E
    case voiceSelected = 0x4F // O
    case voiceUnknown = 0x56 // V
    case samples = 0x50 // P
    case word = 0x57 // W
    case mark = 0x4D // M
    case done = 0x44 // D
    case sandboxViolation = 0x58 // X
    case prepare = 0x4C // L (load)
    case voicePrepared = 0x4B // K
    case voiceFailed = 0x46 // F
}

/// Builds one frame's payload.
struct PayloadWriter {
    var bytes: [UInt8] = []

    mutating func append(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Int32) { append(UInt32(bitPattern: value)) }

    mutating func append(_ value: UInt8) { bytes.append(value) }

    mutating func append(_ value: String) {
        append(UInt32(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// The frame: tag, length, payload.
    func frame(_ tag: EngineWireTag) -> [UInt8] {
        var frame = header(tag, trailingBytes: 0)
        frame.reserveCapacity(frame.count + bytes.count)
        frame.append(contentsOf: bytes)
        return frame
    }

    /// The start of a frame whose payload is this payload and then `trailingBytes` more bytes,
    /// written after it: tag, length.
    func header(_ tag: EngineWireTag, trailingBytes: Int) -> [UInt8] {
        var header: [UInt8] = [tag.rawValue]
        withUnsafeBytes(of: UInt32(bytes.count + trailingBytes).littleEndian) { header.append(contentsOf: $0) }
        return header
    }
}

/// Reads one frame's payload; every read past the end fails.
struct PayloadReader {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    mutating func uint32() throws(EngineWireError) -> UInt32 {
        guard bytes.endIndex - index >= 4 else { throw .malformed("a frame ends inside a number") }
        var value: UInt32 = 0
        for shift in 0..<4 { value |= UInt32(bytes[index + shift]) << (8 * UInt32(shift)) }
        index += 4
        return value
    }

    mutating func int32() throws(EngineWireError) -> Int32 { Int32(bitPattern: try uint32()) }

    mutating func uint8() throws(EngineWireError) -> UInt8 {
        guard index < bytes.endIndex else { throw .malformed("a frame ends early") }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func string() throws(EngineWireError) -> String {
        let count = Int(try uint32())
        guard bytes.endIndex - index >= count else { throw .malformed("a frame ends inside a string") }
        defer { index += count }
        return String(decoding: bytes[index..<index + count], as: UTF8.self)
    }

    /// The rest of the payload as 16-bit samples.
    mutating func samples() throws(EngineWireError) -> [Int16] {
        let rest = bytes[index...]
        guard rest.count % 2 == 0 else { throw .malformed("an odd number of sample bytes") }
        index = bytes.endIndex
        // Little-endian on the wire as in memory (Linux on x86-64 and arm64): one copy.
        return [Int16](unsafeUninitializedCapacity: rest.count / 2) { samples, initialized in
            rest.withUnsafeBytes { UnsafeMutableRawBufferPointer(samples).copyMemory(from: $0) }
            initialized = rest.count / 2
        }
    }
}

/// A frame that cannot be decoded: the other side is not the helper (or daemon) of this build.
public enum EngineWireError: Error, Equatable, Sendable {
    /// The frame is cut short or has an unknown tag or value; the text says which.
    case malformed(String)
}

extension EngineRequest {
    /// The request as one frame.
    public var frame: [UInt8] {
        switch self {
        case .abort:
            return PayloadWriter().frame(.abort)
        case .prepare(let voice):
            var payload = PayloadWriter()
            payload.append(voice)
            return payload.frame(.prepare)
        case .synthesize(let request):
            var payload = Self.synthesizeFields(request)
            payload.append(request.text)
            return payload.frame(.synthesize)
        }
    }

    /// Writes the request's frame to `channel`; false when the other end is gone. A synthesize
    /// request's text (up to a chapter) goes from its string's own storage, not copied into a
    /// frame first; the bytes are those of ``frame``.
    public func write(to channel: FrameChannel) -> Bool {
        guard case .synthesize(let request) = self else { return channel.write(frame) }
        var fields = Self.synthesizeFields(request)
        var text = request.text
        return text.withUTF8 { utf8 in
            fields.append(UInt32(utf8.count))
            var start = fields.header(.synthesize, trailingBytes: utf8.count)
            start.append(contentsOf: fields.bytes)
            return channel.write(start) && channel.write(UnsafeRawBufferPointer(utf8))
        }
    }

    /// A synthesize request's payload up to its text.
    private static func synthesizeFields(_ request: SynthesisRequest) -> PayloadWriter {
        var payload = PayloadWriter()
        payload.append(request.voice)
        payload.append(request.rate)
        payload.append(request.pitch)
        payload.append(request.volume)
        payload.append(request.punctuation.rawValue)
        payload.append(request.punctuationList)
        payload.append(UInt8(request.ssml ? 1 : 0))
        return payload
    }

    /// Decodes a frame's tag and payload.
    public init(tag: UInt8, payload: ArraySlice<UInt8>) throws(EngineWireError) {
        var reader = PayloadReader(payload)
        switch EngineWireTag(rawValue: tag) {
        case .abort:
            self = .abort
        case .prepare:
            self = .prepare(voice: try reader.string())
        case .synthesize:
            let voice = try reader.string()
            let rate = try reader.int32()
            let pitch = try reader.int32()
            let volume = try reader.int32()
            guard let punctuation = SynthesisRequest.Punctuation(rawValue: try reader.uint8()) else {
                throw .malformed("an unknown punctuation mode")
            }
            let list = try reader.string()
            let ssml = try reader.uint8() != 0
            let text = try reader.string()
            self = .synthesize(
                SynthesisRequest(
                    voice: voice, rate: rate, pitch: pitch, volume: volume, punctuation: punctuation,
                    punctuationList: list, ssml: ssml, text: text
                )
            )
        default:
            throw .malformed("unknown request tag \(tag)")
        }
    }
}

extension EngineMessage {
    /// The message as one frame.
    public var frame: [UInt8] {
        var payload = PayloadWriter()
        switch self {
        case .ready(let sampleRate, let voices):
            payload.append(sampleRate)
            payload.append(UInt32(voices.count))
            for voice in voices {
                payload.append(voice.name)
                payload.append(UInt32(voice.languages.count))
                for language in voice.languages { payload.append(language) }
                payload.append(voice.identifier)
                payload.append(voice.gender)
                payload.append(voice.title)
            }
            return payload.frame(.ready)
        case .initializationFailed(let code):
            payload.append(code)
            return payload.frame(.initializationFailed)
        case .voiceSelected:
            return payload.frame(.voiceSelected)
        case .voiceUnknown:
            return payload.frame(.voiceUnknown)
        case .samples(let samples):
            return Self.samplesFrame(samples.withUnsafeBufferPointer { $0 })
        case .word(let sample, let textPosition, let length):
            payload.append(sample)
            payload.append(textPosition)
            payload.append(length)
            return payload.frame(.word)
        case .mark(let sample, let name):
            payload.append(sample)
            payload.append(name)
            return payload.frame(.mark)
        case .done(let status):
            payload.append(status)
            return payload.frame(.done)
        case .sandboxViolation(let systemCall):
            payload.append(systemCall)
            return payload.frame(.sandboxViolation)
        case .voicePrepared(let status, let message):
            payload.append(status)
            payload.append(message)
            return payload.frame(.voicePrepared)
        case .voiceFailed(let message):
            payload.append(message)
            return payload.frame(.voiceFailed)
        }
    }

    /// A `samples` frame straight from a buffer (the helper's synthesis callback).
    public static func samplesFrame(_ samples: UnsafeBufferPointer<Int16>) -> [UInt8] {
        var header = PayloadWriter()
        header.append(UInt32(samples.count * 2))
        // Little-endian on the wire as in memory (Linux on x86-64 and arm64): one copy.
        return [EngineWireTag.samples.rawValue] + header.bytes + UnsafeRawBufferPointer(samples)
    }

    /// Decodes a frame's tag and payload.
    public init(tag: UInt8, payload: ArraySlice<UInt8>) throws(EngineWireError) {
        var reader = PayloadReader(payload)
        switch EngineWireTag(rawValue: tag) {
        case .ready:
            let sampleRate = try reader.int32()
            let count = try reader.uint32()
            var voices: [EngineVoice] = []
            for _ in 0..<min(count, 10_000) {
                let name = try reader.string()
                let languageCount = try reader.uint32()
                var languages: [String] = []
                for _ in 0..<min(languageCount, 100) { languages.append(try reader.string()) }
                let identifier = try reader.string()
                let gender = try reader.uint8()
                let title = try reader.string()
                voices.append(
                    EngineVoice(name: name, identifier: identifier, languages: languages, gender: gender, title: title))
            }
            self = .ready(sampleRate: sampleRate, voices: voices)
        case .initializationFailed:
            self = .initializationFailed(code: try reader.int32())
        case .voiceSelected:
            self = .voiceSelected
        case .voiceUnknown:
            self = .voiceUnknown
        case .samples:
            self = .samples(try reader.samples())
        case .word:
            self = .word(sample: try reader.uint32(), textPosition: try reader.int32(), length: try reader.int32())
        case .mark:
            self = .mark(sample: try reader.uint32(), name: try reader.string())
        case .done:
            self = .done(status: try reader.int32())
        case .sandboxViolation:
            self = .sandboxViolation(systemCall: try reader.string())
        case .voicePrepared:
            self = .voicePrepared(status: try reader.int32(), message: try reader.string())
        case .voiceFailed:
            self = .voiceFailed(message: try reader.string())
        default:
            throw .malformed("unknown message tag \(tag)")
        }
    }
}
