// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceSSIP
import NIOCore
import SSIPProtocol

/// libFuzzer's entry point: the input, split at LF, is one SSIP connection's lines through a
/// session. Every reply must be well-formed SSIP (the same code on every line, `-` on data lines,
/// a space before the last line's text, CR LF ends, no other CR or LF), and no queued message may
/// exceed the length bound.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSIP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    var session = SSIPSession(clientID: 1, maxCharacters: 64)
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        switch session.take(line) {
        case .reply(let reply), .control(_, _, let reply), .setOthers(_, _, let reply):
            checkWellFormed(reply)
        case .queue(let message):
            precondition(message.text.unicodeScalars.count <= 64, "a message past the bound was queued")
            checkWellFormed(.messageQueued(Int(Int32.max)))
        case .none, .listSynthesisVoices, .listOutputModules, .setOutputModule, .quit:
            break
        }
    }
    fuzzDecoder(bytes)
    return 0
}

/// The same input through the front-end's decoder as a byte stream, cut in two reads where its
/// first byte says: every answer is well-formed SSIP, every message within the bound, and its
/// options can be worked out.
func fuzzDecoder(_ bytes: UnsafeBufferPointer<UInt8>) {
    let frontEnd = SSIPFrontEnd(
        voices: [VoiceDescription(name: "en-us", identifier: "gmw/en-US", languages: ["en-us", "en"])],
        maxLineBytes: 256, maxTextChars: 64)
    var decoder = frontEnd.makeDecoder(for: 1)
    let cut = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    var inputs: [ClientInput] = []
    for part in [bytes[..<cut], bytes[cut...]] {
        var buffer = ByteBuffer(bytes: part)
        inputs += decoder.decode(&buffer).inputs
    }
    inputs += decoder.decodeLast().inputs
    decoder.closed()
    for input in inputs {
        switch input {
        case .answered(let answer):
            guard let reply = answer as? SSIPReply else { preconditionFailure("an answer that is not an SSIP reply") }
            checkWellFormedBytes(reply.bytes)
        case .control:
            break
        case .message(let message), .queuedMessage(let message, _):
            precondition(message.text.unicodeScalars.count <= 64, "a message past the bound was queued")
            _ = message.options(SpeechDefaults(voice: "en-us", rate: 175, pitch: 50, volume: 100, punctuation: .none))
        case .request, .postOffMain, .invalid, .name:
            break
        }
    }
}

/// Well-formed reply bytes: one or more replies, each with one code on every line.
func checkWellFormedBytes(_ bytes: [UInt8]) {
    precondition(bytes.last == 10)
    for line in bytes.split(separator: 10) {
        precondition(line.last == 13 && line.count >= 6, "a reply line without CR LF or too short")
        precondition(line.prefix(3).allSatisfy { (48...57).contains($0) })
        precondition(line.dropFirst(3).first == UInt8(ascii: " ") || line.dropFirst(3).first == UInt8(ascii: "-"))
    }
}

func checkWellFormed(_ reply: SSIPReply) {
    precondition((100...999).contains(reply.code))
    let lines = reply.bytes.split(separator: 10, omittingEmptySubsequences: false).dropLast()
    precondition(reply.bytes.last == 10 && lines.allSatisfy { $0.last == 13 })
    for (index, line) in lines.enumerated() {
        let body = line.dropLast()
        precondition(!body.contains(13), "a CR inside a reply line")
        precondition(Array(body.prefix(3)) == Array(String(reply.code).utf8))
        let separator = body.dropFirst(3).first
        precondition(separator == (index == lines.count - 1 ? UInt8(ascii: " ") : UInt8(ascii: "-")))
    }
}
