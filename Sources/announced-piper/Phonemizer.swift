// SPDX-License-Identifier: GPL-3.0-or-later
import CEspeakNG
import Glibc

/// One clause of a text in the IPA phonemes a Piper voice was trained on: what espeak-ng's
/// `espeak_TextToPhonemes` gives for it, with the clause's punctuation put back (as Piper's own
/// phonemizer does: espeak-ng 1.51 drops it, and it shapes the intonation and the pause).
struct PhonemizedClause {
    /// The phonemes, as Unicode scalars.
    var phonemes: [Unicode.Scalar]
    /// The clause's scalars in the segment text: `start..<end`.
    var start: Int
    var end: Int
    /// Whether the clause ends a sentence (`.`, `?`, `!`, or the end of the text).
    var endsSentence: Bool
}

/// Reads a text clause by clause through espeak-ng, one clause at a time, so that a long text's
/// first sentence is synthesized before the rest is phonemized.
final class ClauseReader {
    private let buffer: UnsafeMutableBufferPointer<CChar>
    private var cursor: UnsafeRawPointer?
    /// Scalars of the text before `cursor`.
    private var scalarsRead = 0

    /// Reads `text`; espeak-ng's voice must already be selected.
    init(_ text: [Unicode.Scalar]) {
        let utf8 = Array(String(String.UnicodeScalarView(text)).utf8)
        buffer = .allocate(capacity: utf8.count + 1)
        for (index, byte) in utf8.enumerated() { buffer[index] = CChar(bitPattern: byte) }
        buffer[utf8.count] = 0
        cursor = utf8.isEmpty ? nil : UnsafeRawPointer(buffer.baseAddress!)
    }

    deinit {
        buffer.deallocate()
    }

    /// The next clause; nil at the end of the text.
    func next() -> PhonemizedClause? {
        while let start = cursor {
            var pointer: UnsafeRawPointer? = start
            let result = espeak_TextToPhonemes(&pointer, espeakCHARS_UTF8, espeakPHONEMES_IPA)
            let end = pointer ?? UnsafeRawPointer(endOfText)
            cursor = pointer
            let consumed = UnsafeBufferPointer(start: start.assumingMemoryBound(to: CChar.self), count: end - start)
            let firstScalar = scalarsRead
            scalarsRead += consumed.reduce(0) { $1 & -64 == -128 ? $0 : $0 + 1 }  // not a continuation byte
            var phonemes = Self.cleaned(result.map { String(cString: $0) } ?? "")
            let punctuation = Self.terminator(consumed)
            let endsSentence = pointer == nil || punctuation.map { ".?!".unicodeScalars.contains($0) } ?? false
            if phonemes.isEmpty { continue }
            if let punctuation { phonemes.append(punctuation) }
            if !endsSentence { phonemes.append(" ") }
            return PhonemizedClause(phonemes: phonemes, start: firstScalar, end: scalarsRead, endsSentence: endsSentence)
        }
        return nil
    }

    private var endOfText: UnsafeMutablePointer<CChar> {
        buffer.baseAddress! + strlen(buffer.baseAddress!)
    }

    /// The clause's closing punctuation (the last of `.,?!;:` before trailing spaces and
    /// closing quotes or brackets), if any.
    static func terminator(_ bytes: UnsafeBufferPointer<CChar>) -> Unicode.Scalar? {
        for byte in bytes.reversed() {
            switch UInt8(bitPattern: byte) {
            case UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: ";"), UInt8(ascii: ":"):
                return Unicode.Scalar(UInt8(bitPattern: byte))
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\""),
                UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: "]"), 0:
                continue
            default:
                return nil
            }
        }
        return nil
    }

    /// espeak-ng's IPA without its language-switch flags (`(fr)`), newlines and outer spaces.
    static func cleaned(_ ipa: String) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        var inFlag = false
        for scalar in ipa.unicodeScalars {
            switch scalar {
            case "(": inFlag = true
            case ")": inFlag = false
            case "\n", "\r", "\t": if !inFlag { result.append(" ") }
            default: if !inFlag { result.append(scalar) }
            }
        }
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return result
    }
}
