// SPDX-License-Identifier: GPL-3.0-or-later

/// An utterance's text as the Piper helper speaks it: plain text in segments, each begun by the
/// SSML mark before it (if any), with every scalar's position in the text as the daemon sent it.
///
/// Piper has no SSML of its own. Marks split the text, so each segment is synthesized on its own
/// and a mark is reported at the first sample of the audio after it; a `<break>` splits it too,
/// with its silence (`time`, or `strength` as SSML's table suggests); every other tag is dropped
/// (block tags, `<p>`, `<s>`, leave a space so words on each side stay apart) and entities are
/// decoded. Positions count Unicode scalars of the text sent, tags included, as
/// espeak-ng's do, so the daemon maps words back the same way for both engines.
struct SpeechText {
    /// A run of plain text.
    struct Segment {
        /// The mark reached where this segment begins.
        var mark: String?
        /// Silence before the text, in seconds (an SSML `<break>`).
        var pause: Double = 0
        /// The plain text.
        var text: [Unicode.Scalar] = []
        /// For each scalar of `text`, its 0-based position in the text sent.
        var positions: [Int] = []
    }

    /// The segments, in order; at least one.
    private(set) var segments: [Segment]

    /// Splits `text` (SSML when `ssml`).
    init(_ text: String, ssml: Bool) {
        let scalars = Array(text.unicodeScalars)
        guard ssml else {
            segments = [Segment(mark: nil, text: scalars, positions: Array(scalars.indices))]
            return
        }
        var segments = [Segment()]
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<", let close = scalars[index...].firstIndex(of: ">") {
                let tag = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
                let name = Self.tagName(tag)
                if name == "mark" {
                    segments.append(Segment(mark: Self.attribute("name", in: tag) ?? ""))
                } else if name == "break", !tag.hasPrefix("/") {
                    segments.append(Segment(mark: nil, pause: Self.breakSeconds(tag)))
                } else if Self.blockTags.contains(name), let last = segments[segments.count - 1].text.last,
                    !last.properties.isWhitespace
                {
                    segments[segments.count - 1].text.append(" ")
                    segments[segments.count - 1].positions.append(index)
                }
                index = close + 1
                continue
            }
            if scalar == "&", let semicolon = scalars[index...].prefix(12).firstIndex(of: ";"),
                let decoded = Self.entity(String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon])))
            {
                segments[segments.count - 1].text.append(decoded)
                segments[segments.count - 1].positions.append(index)
                index = semicolon + 1
                continue
            }
            segments[segments.count - 1].text.append(scalar)
            segments[segments.count - 1].positions.append(index)
            index += 1
        }
        self.segments = segments
    }

    /// A `<break>`'s silence in seconds: its `time` (`500ms`, `1.5s`, at most 10 s), else its
    /// `strength` (none 0, x-weak 0.1, weak 0.2, medium 0.4, strong 0.6, x-strong 1), else medium.
    static func breakSeconds(_ tag: String) -> Double {
        if let time = attribute("time", in: tag) {
            let value =
                time.hasSuffix("ms")
                ? Double(time.dropLast(2)).map { $0 / 1000 } : time.hasSuffix("s") ? Double(time.dropLast()) : nil
            if let value, value.isFinite { return min(max(value, 0), 10) }
        }
        switch attribute("strength", in: tag) {
        case "none": return 0
        case "x-weak": return 0.1
        case "weak": return 0.2
        case "strong": return 0.6
        case "x-strong": return 1
        default: return 0.4
        }
    }

    /// Tags whose ends separate words.
    static let blockTags: Set<String> = [
        "speak", "p", "s", "break", "paragraph", "sentence", "audio", "voice", "prosody",
    ]

    /// `mark` for `mark name="x"/`, `p` for `/p`.
    static func tagName(_ tag: String) -> String {
        var name = Substring(tag)
        if name.hasPrefix("/") { name = name.dropFirst() }
        return String(name.prefix { !$0.isWhitespace && $0 != "/" }).lowercased()
    }

    /// The value of attribute `name` in a tag's text, quoted either way.
    static func attribute(_ name: String, in tag: String) -> String? {
        let characters = Array(tag)
        let wanted = Array(name)
        var index = 0
        while index + wanted.count <= characters.count {
            defer { index += 1 }
            guard Array(characters[index..<(index + wanted.count)]) == wanted,
                index == 0 || characters[index - 1].isWhitespace
            else { continue }
            var cursor = index + wanted.count
            while cursor < characters.count, characters[cursor] == " " { cursor += 1 }
            guard cursor < characters.count, characters[cursor] == "=" else { continue }
            cursor += 1
            while cursor < characters.count, characters[cursor] == " " { cursor += 1 }
            guard cursor < characters.count, characters[cursor] == "\"" || characters[cursor] == "'" else { continue }
            let quote = characters[cursor]
            let value = characters[(cursor + 1)...].prefix { $0 != quote }
            return String(value)
        }
        return nil
    }

    /// The scalar of an entity's name (`amp`, `#39`, `#x27`).
    static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value =
                digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
    }
}
