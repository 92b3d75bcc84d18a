// SPDX-License-Identifier: GPL-3.0-or-later
internal import CLD2Shim

/// Finds which of a few languages a short phrase is in (`language_switching: detect`).
public protocol LanguageIdentifier: Sendable {
    /// The one of `candidates` (language tags, two or more) `phrase` is in, as given in
    /// `candidates`; nil when it is not identified with confidence.
    func language(of phrase: String, among candidates: [String]) -> String?
}

/// CLD2 (Chromium's Compact Language Detector 2, Debian's libcld2-dev), restricted to the
/// candidates: they are its hints, and its answer counts only when it is a candidate, CLD2 finds
/// it reliable, and it is CLD2's first. Chosen over libexttextcat by the comparison in
/// Benchmarks/README.md ("Language identifiers"). Thread-safe, as CLD2 is.
///
/// The library (`libcld2.so.0`, its tables compiled in) is opened with dlopen on the first
/// question, not linked: only `language_switching: detect` asks, so no other daemon maps it. If it
/// cannot be opened, every answer is nil (``loadFailure`` says why), and the runs stay in the
/// post's language.
public struct CLD2LanguageIdentifier: LanguageIdentifier {
    /// The identifier; CLD2 is opened when it is first asked.
    public init() {}

    /// Opens CLD2 now if it is not open yet: nil when it is ready, else why it cannot be opened.
    public static var loadFailure: String? {
        cld2_shim_load().map { String(cString: $0) }
    }

    /// Whether CLD2's library is mapped into this process.
    public static var isLoaded: Bool { cld2_shim_is_loaded() }

    /// The candidate CLD2 finds `phrase` in with confidence, or nil.
    public func language(of phrase: String, among candidates: [String]) -> String? {
        let primaries = candidates.map { Self.cld2Code(LanguageScripts.primary($0)) }
        var utf8 = phrase
        return utf8.withUTF8 { bytes -> String? in
            guard let base = bytes.baseAddress, let length = Int32(exactly: bytes.count) else { return nil }
            var codes: (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) = (nil, nil, nil)
            var reliable = false
            primaries.joined(separator: ",").withCString { hints in
                withUnsafeMutablePointer(to: &codes) { tuple in
                    tuple.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: 3) { codes in
                        base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                            cld2_shim_identify(text, length, hints, codes, &reliable)
                        }
                    }
                }
            }
            guard reliable, let first = codes.0 else { return nil }
            let code = String(cString: first)
            return primaries.firstIndex(of: code).map { candidates[$0] }
        }
    }

    /// CLD2's code for a language: its own older codes for Hebrew and Norwegian, otherwise ISO 639-1.
    private static func cld2Code(_ primary: Substring) -> String {
        switch primary {
        case "he": "iw"
        case "nb": "no"
        default: String(primary)
        }
    }
}
