// SPDX-License-Identifier: GPL-3.0-or-later

/// One piece of an SSML text: a tag, or the text between tags, at its place in the text's scalars.
///
/// Lenient, as the engines are: a `<` that never closes starts text; a closing tag that closes
/// nothing open is kept and ignored; comments, declarations and processing instructions are kept
/// as they are.
struct SSMLToken {
    enum Kind: Equatable {
        /// Text between tags (a CDATA section too).
        case text
        /// `<name ...>`: `language` is its `xml:lang`, if any.
        case open(name: String, language: String?)
        /// `</name>`.
        case close(name: String)
        /// `<name .../>` (`mark`, `break`, `audio`, ...): `language` is its `xml:lang`, if any.
        case empty(name: String, language: String?)
        /// `<!-- -->`, `<?xml ?>`, `<!DOCTYPE>`.
        case other
    }

    var kind: Kind
    /// Where the token is, in scalars of the text.
    var range: Range<Int>

    /// The tokens of `scalars`, in order, together covering them.
    static func tokens(of scalars: [Unicode.Scalar]) -> [SSMLToken] {
        var tokens: [SSMLToken] = []
        var index = 0
        var textStart = 0
        func endText(at end: Int) {
            if textStart < end { tokens.append(SSMLToken(kind: .text, range: textStart..<end)) }
        }
        while index < scalars.count {
            guard scalars[index] == "<", let token = tag(at: index, in: scalars) else {
                index += 1
                continue
            }
            endText(at: index)
            tokens.append(token)
            index = token.range.upperBound
            textStart = index
        }
        endText(at: scalars.count)
        return tokens
    }

    /// The tag (or comment, CDATA section, declaration) starting with the `<` at `start`, or nil
    /// when it never ends.
    private static func tag(at start: Int, in scalars: [Unicode.Scalar]) -> SSMLToken? {
        if has("<!--", at: start, in: scalars) {
            return end(of: "-->", from: start + 4, in: scalars).map { SSMLToken(kind: .other, range: start..<$0) }
        }
        if has("<![CDATA[", at: start, in: scalars) {
            return end(of: "]]>", from: start + 9, in: scalars).map { SSMLToken(kind: .text, range: start..<$0) }
        }
        // The `>` that ends the tag, outside quoted attribute values.
        var quote: Unicode.Scalar?
        var index = start + 1
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == ">" {
                break
            }
            index += 1
        }
        guard index < scalars.count else { return nil }
        let range = start..<(index + 1)
        let inner = scalars[(start + 1)..<index]
        guard let first = inner.first else { return nil }
        if first == "?" || first == "!" { return SSMLToken(kind: .other, range: range) }
        let closing = first == "/"
        let selfClosing = !closing && inner.last == "/"
        let body = inner.dropFirst(closing ? 1 : 0).dropLast(selfClosing ? 1 : 0)
        let nameEnd = body.firstIndex(where: { $0.properties.isWhitespace }) ?? body.endIndex
        let name = String(String.UnicodeScalarView(body[..<nameEnd]))
        guard !name.isEmpty else { return nil }
        if closing { return SSMLToken(kind: .close(name: name), range: range) }
        let language = attribute("xml:lang", in: body[nameEnd...])
        return SSMLToken(
            kind: selfClosing ? .empty(name: name, language: language) : .open(name: name, language: language),
            range: range)
    }

    /// The value of attribute `name` among a tag's attributes, if it has one.
    private static func attribute(_ name: String, in attributes: ArraySlice<Unicode.Scalar>) -> String? {
        let wanted = Array(name.unicodeScalars)
        var index = attributes.startIndex
        while index < attributes.endIndex {
            // Skip spaces, read a name up to `=`, then a quoted value.
            while index < attributes.endIndex, attributes[index].properties.isWhitespace { index += 1 }
            let nameStart = index
            while index < attributes.endIndex, attributes[index] != "=", !attributes[index].properties.isWhitespace {
                index += 1
            }
            let attributeName = attributes[nameStart..<index]
            while index < attributes.endIndex, attributes[index].properties.isWhitespace { index += 1 }
            guard index < attributes.endIndex, attributes[index] == "=" else {
                if index == nameStart { index += 1 }
                continue
            }
            index += 1
            while index < attributes.endIndex, attributes[index].properties.isWhitespace { index += 1 }
            guard index < attributes.endIndex, attributes[index] == "\"" || attributes[index] == "'" else { continue }
            let quote = attributes[index]
            let valueStart = index + 1
            guard let valueEnd = attributes[valueStart...].firstIndex(of: quote) else { return nil }
            index = valueEnd + 1
            if attributeName.elementsEqual(wanted) {
                let value = String(String.UnicodeScalarView(attributes[valueStart..<valueEnd]))
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    private static func has(_ prefix: String, at start: Int, in scalars: [Unicode.Scalar]) -> Bool {
        let wanted = Array(prefix.unicodeScalars)
        return start + wanted.count <= scalars.count && scalars[start..<(start + wanted.count)].elementsEqual(wanted)
    }

    /// The index just after the first `terminator` at or after `start`, or nil.
    private static func end(of terminator: String, from start: Int, in scalars: [Unicode.Scalar]) -> Int? {
        let wanted = Array(terminator.unicodeScalars)
        var index = start
        while index + wanted.count <= scalars.count {
            if scalars[index..<(index + wanted.count)].elementsEqual(wanted) { return index + wanted.count }
            index += 1
        }
        return nil
    }
}
