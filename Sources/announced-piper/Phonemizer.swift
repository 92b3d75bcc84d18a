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
    ///
    /// espeak-ng reads a scalar ahead to find where a clause ends: `Download complete. The`
    /// comes back as one step whose phonemes stop at "complete", with the cursor after the `T`.
    /// A non-space scalar right after a space at the end of a step is that look-ahead: it
    /// belongs to the next clause (a closing quote right after the full stop belongs to this one).
    func next() -> PhonemizedClause? {
        while let start = cursor {
            var pointer: UnsafeRawPointer? = start
            let result = espeak_TextToPhonemes(&pointer, espeakCHARS_UTF8, espeakPHONEMES_IPA)
            let end = pointer ?? UnsafeRawPointer(endOfText)
            cursor = pointer
            let consumed = UnsafeRawBufferPointer(start: start, count: end - start)
            var scalars = Array(String(decoding: consumed, as: UTF8.self).unicodeScalars)
            if pointer != nil, scalars.count >= 2, !scalars[scalars.count - 1].properties.isWhitespace,
                scalars[scalars.count - 2].properties.isWhitespace
            {
                scalars.removeLast()
            }
            let firstScalar = clauseStart
            clauseStart += scalars.count
            var phonemes = Self.cleaned(result.map { String(cString: $0) } ?? "")
            let punctuation = Self.terminator(scalars)
            let endsSentence = pointer == nil || punctuation.map { ".?!".unicodeScalars.contains($0) } ?? false
            if phonemes.isEmpty { continue }
            if let punctuation { phonemes.append(punctuation) }
            if !endsSentence { phonemes.append(" ") }
            return PhonemizedClause(
                phonemes: phonemes, start: firstScalar, end: firstScalar + scalars.count, endsSentence: endsSentence)
        }
        return nil
    }

    /// Where the next clause starts, in scalars of the text (the look-ahead scalar of the last step).
    private var clauseStart = 0

    private var endOfText: UnsafeMutablePointer<CChar> {
        buffer.baseAddress! + strlen(buffer.baseAddress!)
    }

    /// The clause's closing punctuation (the last of `.,?!;:` before trailing spaces and
    /// closing quotes or brackets), if any.
    static func terminator(_ scalars: [Unicode.Scalar]) -> Unicode.Scalar? {
        for scalar in scalars.reversed() {
            switch scalar {
            case ".", ",", "?", "!", ";", ":":
                return scalar
            case "\"", "'", ")", "]", "}", "\u{201D}", "\u{2019}", "\u{BB}":
                continue
            default:
                if scalar.properties.isWhitespace { continue }
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
