// SPDX-License-Identifier: GPL-3.0-or-later
/// One SSIP reply or event as it came off the socket: its lines, without their CR LF.
struct SSIPBlock: Equatable, CustomStringConvertible {
    /// Every line, `NNN-data` then the final `NNN text`.
    var lines: [String]

    /// The three-digit code of the final line.
    var code: Int { Int(lines.last?.prefix(3) ?? "") ?? 0 }
    /// True for an asynchronous event (7xx).
    var isEvent: Bool { code / 100 == 7 }
    /// The data lines' contents (after `NNN-`).
    var data: [String] { lines.dropLast().map { String($0.dropFirst(4)) } }
    /// The final line's text (after `NNN `).
    var text: String { String(lines.last?.dropFirst(4) ?? "") }
    /// An event's message id (its first data line).
    var messageID: Int? { isEvent ? data.first.flatMap { Int($0) } : nil }
    /// An event's client id (its second data line).
    var clientID: Int? { isEvent && data.count > 1 ? Int(data[1]) : nil }
    /// A 700 INDEX MARK's name (its third data line).
    var mark: String? { code == 700 && data.count > 2 ? data[2] : nil }

    var description: String { lines.joined(separator: "|") }
}
