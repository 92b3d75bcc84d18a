// SPDX-License-Identifier: GPL-3.0-or-later
import AccessibilityLint
import AnnounceCore
import AnnounceProtocol

/// libFuzzer's entry point: one request line through the decoder, and every element it carries
/// through the composition VoiceOver's order, the localization tables and the lint rules.
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
            // Every finding is about an element the post carries.
            var ids = Set(post.elements?.flatMap(\.allIDs) ?? [])
            if case .element(let element) = post.subject { ids.formUnion(element.allIDs) }
            for finding in AccessibilityLint.findings(for: post, language: language) {
                precondition(ids.contains(finding.element), "a finding about an element the post does not carry")
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
