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
        case .none, .listSynthesisVoices, .quit:
            break
        }
    }
    return 0
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
