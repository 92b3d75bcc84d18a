// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// The process's environment as a dictionary, read from `environ`.
///
/// Written here rather than taken from `ProcessInfo`: that is FoundationEssentials', and the
/// daemon's run path uses nothing else of Foundation, whose code would otherwise stay resident.
enum ProcessEnvironment {
    /// Every `NAME=value` entry; for a name given twice, the first one, as `getenv` reads it.
    static var current: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), result[String(text[..<equals])] == nil {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
