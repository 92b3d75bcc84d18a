// SPDX-License-Identifier: GPL-3.0-or-later
/// The order rules of one SSIP connection's writes, checked against the commands it sent.
public enum SSIPReplyOrder {
    /// What is wrong with `written` (the connection's lines, without CR LF) for `commands` sent
    /// in order: every reply comes in the order of its command, a control's answer too (it waits
    /// behind nothing: it comes before the events it causes, shared/ssip.md §7); a message's 225
    /// comes before its events; every message gets exactly one of END and CANCELED.
    public static func check(commands: [String], written: [String]) -> [String] {
        var problems: [String] = []
        // The blocks: lines up to one whose fourth character is a space.
        var blocks: [[String]] = []
        var current: [String] = []
        for line in written {
            current.append(line)
            if line.count >= 4, line[line.index(line.startIndex, offsetBy: 3)] == " " {
                blocks.append(current)
                current = []
            }
        }
        if !current.isEmpty { problems.append("an unfinished block: \(current)") }
        let replies = blocks.enumerated().filter { !$0.element[0].hasPrefix("7") }
        // The codes the commands get, in order.
        var wantInOrder: [String] = []
        for command in commands {
            if command.hasPrefix("SPEAK") {
                wantInOrder += ["230", "225"]
            } else if command.hasPrefix("CHAR") {
                wantInOrder.append("225")
            } else if command.hasPrefix("CANCEL") {
                wantInOrder.append("213")
            } else if command.hasPrefix("GET") {
                wantInOrder.append("251")
            } else {
                wantInOrder.append(command.contains("PRIORITY") ? "202" : command.contains("RATE") ? "203" : "220")
            }
        }
        let gotInOrder = replies.map { String($0.element.last!.prefix(3)) }
        if gotInOrder != wantInOrder {
            let first =
                zip(gotInOrder, wantInOrder).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(gotInOrder.count, wantInOrder.count)
            problems.append(
                """
                replies out of the commands' order from reply \(first) of \(wantInOrder.count) (\(gotInOrder.count) came): \
                came \(gotInOrder.dropFirst(max(0, first - 3)).prefix(8)), expected \(wantInOrder.dropFirst(max(0, first - 3)).prefix(8))
                """)
        }
        // Message ids in the order of their commands, and where each block about them is.
        var messages: [String] = []
        var queuedAt: [String: Int] = [:]
        var terminalAt: [String: [Int]] = [:]
        var firstEventAt: [String: Int] = [:]
        for (position, block) in blocks.enumerated() {
            let code = String(block.last!.prefix(3))
            if code == "225" {
                let id = String(block[0].dropFirst(4))
                queuedAt[id] = position
                messages.append(id)
            } else if code.hasPrefix("7") {
                let id = String(block[0].dropFirst(4))
                if firstEventAt[id] == nil { firstEventAt[id] = position }
                if code == "702" || code == "703" { terminalAt[id, default: []].append(position) }
            }
        }
        for id in messages {
            if let event = firstEventAt[id], let queued = queuedAt[id], event < queued {
                problems.append("an event of \(id) before its 225")
            }
            if terminalAt[id]?.count != 1 { problems.append("message \(id): \(terminalAt[id]?.count ?? 0) of 702/703") }
        }
        return problems
    }
}
