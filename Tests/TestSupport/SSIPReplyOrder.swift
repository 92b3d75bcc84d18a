// SPDX-License-Identifier: GPL-3.0-or-later
/// The order rules of one SSIP connection's writes, checked against the commands it sent.
public enum SSIPReplyOrder {
    /// What is wrong with `written` (the connection's lines, without CR LF) for `commands` sent
    /// in order: every reply comes in the order of its command (a control's answer may wait
    /// behind events, but never comes before the replies to earlier commands); a message's 225
    /// comes before its events; a CANCEL's 213 comes after the END or CANCELED of every message
    /// sent before it; every message gets exactly one of them.
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
        var expected: [(code: String, command: Int)] = []
        for (index, command) in commands.enumerated() {
            if command.hasPrefix("SPEAK") {
                expected += [("230", index), ("225", index)]
            } else if command.hasPrefix("CHAR") {
                expected.append(("225", index))
            } else if command.hasPrefix("CANCEL") {
                expected.append(("213", index))
            } else if command.hasPrefix("GET") {
                expected.append(("251", index))
            } else {
                expected.append((command.contains("PRIORITY") ? "202" : command.contains("RATE") ? "203" : "220", index))
            }
        }
        let codes = replies.map { String($0.element.last!.prefix(3)) }
        let isControl: (String) -> Bool = { $0 == "213" }
        let gotInOrder = codes.filter { !isControl($0) }
        let wantInOrder = expected.map(\.code).filter { !isControl($0) }
        if gotInOrder != wantInOrder {
            let first = zip(gotInOrder, wantInOrder).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(gotInOrder.count, wantInOrder.count)
            problems.append("""
                replies out of the commands' order from reply \(first) of \(wantInOrder.count) (\(gotInOrder.count) came): \
                came \(gotInOrder.dropFirst(max(0, first - 3)).prefix(8)), expected \(wantInOrder.dropFirst(max(0, first - 3)).prefix(8))
                """)
        }
        if codes.filter(isControl).count != expected.filter({ isControl($0.code) }).count {
            problems.append("\(codes.filter(isControl).count) answers to CANCEL")
        }
        // Message ids in the order of their commands, and where each block about them is.
        var messages: [(id: String, command: Int)] = []
        var queuedAt: [String: Int] = [:]
        var terminalAt: [String: [Int]] = [:]
        var firstEventAt: [String: Int] = [:]
        for (position, block) in blocks.enumerated() {
            let code = String(block.last!.prefix(3))
            if code == "225" {
                let id = String(block[0].dropFirst(4))
                queuedAt[id] = position
                messages.append((id, -1))
            } else if code.hasPrefix("7") {
                let id = String(block[0].dropFirst(4))
                if firstEventAt[id] == nil { firstEventAt[id] = position }
                if code == "702" || code == "703" { terminalAt[id, default: []].append(position) }
            }
        }
        let queuedCommands = expected.filter { $0.code == "225" }.map(\.command)
        if queuedCommands.count == messages.count {
            for index in messages.indices { messages[index].command = queuedCommands[index] }
        }
        for (id, _) in messages {
            if let event = firstEventAt[id], let queued = queuedAt[id], event < queued { problems.append("an event of \(id) before its 225") }
            if terminalAt[id]?.count != 1 { problems.append("message \(id): \(terminalAt[id]?.count ?? 0) of 702/703") }
        }
        // Each 213: after the replies to every earlier command and the terminal events of every
        // earlier message.
        var controlAnswers = replies.filter { $0.element.last!.hasPrefix("213") }.map(\.offset).makeIterator()
        for (index, command) in commands.enumerated() where command == "CANCEL self" {
            guard let answer = controlAnswers.next() else { break }
            let earlierReplies = expected.filter { $0.command < index && !isControl($0.code) }.count
            let repliedBefore = replies.filter { $0.offset < answer && !$0.element.last!.hasPrefix("213") }.count
            if repliedBefore < earlierReplies { problems.append("213 for command \(index) before the replies to earlier commands") }
            for (id, queuedBy) in messages where queuedBy < index {
                if let end = terminalAt[id]?.first, end > answer { problems.append("213 for command \(index) before the end of message \(id)") }
            }
        }
        return problems
    }
}
