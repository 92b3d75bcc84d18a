// SPDX-License-Identifier: GPL-3.0-or-later
/// The text handed to espeak-ng, and how its character positions map back to the utterance text.
///
/// espeak-ng reports a word's `text_position` 1-based, counted in Unicode scalars (not bytes) of
/// the text it was given (SSML tags included), and its `length` in scalars. When spelling, espeak
/// gets a rewritten text with one word per character, so its word events are counted instead.
///
/// The map decodes the text's scalars (4 bytes each) as far as the words asked for reach, so a
/// chapter is decoded as it is spoken and not before its first sample; when spelling it keeps one
/// range per character. A text of `max_text_chars` costs a few MiB at most, never a table per
/// scalar of the rewritten text.
struct TextPositionMap {
    /// What espeak-ng synthesizes.
    let synthesizedText: String
    /// Whether `synthesizedText` is SSML.
    let isSSML: Bool
    /// The utterance's own text.
    private let original: String.UnicodeScalarView
    /// Its scalars decoded so far, from its start.
    private var decoded: [Unicode.Scalar] = []
    /// Where decoding goes on.
    private var nextToDecode: String.UnicodeScalarView.Index
    /// Whether `synthesizedText` spells the text, one `say-as characters` element per character.
    private let isSpelled: Bool
    /// When spelling: the range of each spelled (non-whitespace) character, in order.
    private let spelledCharacters: [(offset: Int, length: Int)]

    /// The text of an utterance as given.
    init(text: String, ssml: Bool) {
        synthesizedText = text
        isSSML = ssml
        original = text.unicodeScalars
        nextToDecode = original.startIndex
        isSpelled = false
        spelledCharacters = []
    }

    /// Spells `text`: each character becomes an SSML `say-as characters` element, separated by
    /// spaces, so espeak-ng reports one word per character. Whitespace becomes a plain pause.
    init(spelling text: String) {
        original = text.unicodeScalars
        nextToDecode = original.startIndex
        var output = "<speak>"
        var index = 0
        var characters: [(offset: Int, length: Int)] = []
        for character in text {
            let count = character.unicodeScalars.count
            defer { index += count }
            let piece: String
            if character.isWhitespace {
                piece = " "
            } else {
                var escaped = ""
                for scalar in character.unicodeScalars {
                    switch scalar {
                    case "&": escaped += "&amp;"
                    case "<": escaped += "&lt;"
                    case ">": escaped += "&gt;"
                    case "\"": escaped += "&quot;"
                    default: escaped.unicodeScalars.append(scalar)
                    }
                }
                characters.append((index, count))
                piece = "<say-as interpret-as=\"characters\">\(escaped)</say-as> "
            }
            output += piece
        }
        output += "</speak>"
        synthesizedText = output
        isSSML = true
        isSpelled = true
        spelledCharacters = characters
    }

    /// The word range in the utterance text for the `ordinal`-th (0-based) espeak word event, or
    /// nil for the spurious events espeak-ng sometimes emits (zero length).
    ///
    /// Ranges that start on whitespace are moved to the word that follows, and cut words are
    /// extended to the end of their letters. When spelling, espeak reports exactly one word per
    /// `say-as` element but places the events of symbols at the next character, so the
    /// `ordinal`-th event is the `ordinal`-th spelled character.
    mutating func wordRange(textPosition: Int, length: Int, ordinal: Int) -> (offset: Int, length: Int)? {
        if isSpelled {
            return ordinal < spelledCharacters.count ? spelledCharacters[ordinal] : nil
        }
        guard length > 0 else { return nil }
        var start = max(0, textPosition - 1)
        var end = start + length
        while let scalar = scalar(at: start), scalar.properties.isWhitespace {
            start += 1
            end += 1
        }
        guard scalar(at: start) != nil else { return nil }
        end = min(end, decode(upTo: end))
        while end > start, let last = scalar(at: end - 1), let next = scalar(at: end), Self.isWordScalar(last),
            Self.isWordScalar(next)
        {
            end += 1
        }
        return (start, max(1, end - start))
    }

    /// The scalar at `offset` of the text, nil past its end.
    private mutating func scalar(at offset: Int) -> Unicode.Scalar? {
        offset < decode(upTo: offset + 1) ? decoded[offset] : nil
    }

    /// Decodes the text until `count` scalars are decoded or it ends; returns how many are.
    private mutating func decode(upTo count: Int) -> Int {
        while decoded.count < count, nextToDecode < original.endIndex {
            decoded.append(original[nextToDecode])
            original.formIndex(after: &nextToDecode)
        }
        return decoded.count
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}
