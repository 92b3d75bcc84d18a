// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// What `announcectl lint` checks: a JSON document holding an element object, an array of element
/// objects, or a speech post with elements (`screen-changed`, and also `layout-changed` and
/// `focus`), read as the daemon reads them.
public struct LintDocument: Sendable, Hashable {
    /// The elements to check, in the order given.
    public var elements: [Element]
    /// The language of their texts: the post's `lang`, else its `voice`; nil (English) otherwise.
    public var language: String?

    /// Reads a parsed document.
    public init(json: JSONValue) throws(LintDocumentError) {
        if let array = json.arrayValue {
            var elements: [Element] = []
            for (index, item) in array.enumerated() {
                do {
                    elements.append(try Element(json: item, field: "[\(index)]"))
                } catch {
                    throw LintDocumentError("\(error)")
                }
            }
            self.init(elements: elements, language: nil)
        } else if let object = json.objectValue, object["op"] != nil {
            switch RequestLine.decode(json: json) {
            case .failure(let error):
                throw LintDocumentError("the request is not valid: \(error.message)")
            case .success(let line):
                guard case .speech(let post) = line.request, post.kind != .announce else {
                    throw LintDocumentError(
                        "it is a request with `op` \"\(line.request.op)\", which carries no elements")
                }
                self.init(elements: post.postedElements, language: post.options.lang ?? post.options.voice)
            }
        } else if json.objectValue != nil {
            do {
                self.init(elements: [try Element(json: json, field: "element")], language: nil)
            } catch {
                throw LintDocumentError("\(error)")
            }
        } else {
            throw LintDocumentError("it is a JSON \(json.typeName), not an object or an array")
        }
    }

    /// A document of `elements` in `language`.
    public init(elements: [Element], language: String?) {
        self.elements = elements
        self.language = language
    }

    /// Reads a document from its bytes (UTF-8 JSON, any layout).
    public init(bytes: some Collection<UInt8>) throws(LintDocumentError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw LintDocumentError("it is not valid JSON: \(error)")
        }
        try self.init(json: json)
    }

    /// The findings about the document's elements and their descendants.
    public var findings: [LintFinding] { AccessibilityLint.findings(for: elements, language: language) }
}

/// A document `announcectl lint` cannot check.
public struct LintDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, then what to give instead.
    public var description: String

    /// Creates the error for `problem`, adding what a document must hold.
    public init(_ problem: String) {
        description =
            "\(problem); give a JSON element object, an array of element objects, or a `screen-changed` request with `elements`"
    }
}
