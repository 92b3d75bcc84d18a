// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import POSIXThreads
import Testing

/// What a child writes to a pipe, read on a thread of its own to the end and kept, line by line.
// Unchecked: `text` and `ended` are touched only with `condition` held.
final class LineCollector: @unchecked Sendable {
    private let condition = ConditionLock()
    private var text = ""
    private var ended = false

    /// Starts reading `handle` (the read end of a child's output pipe).
    init(reading handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                condition.withLock {
                    if data.isEmpty { ended = true } else { text += String(decoding: data, as: UTF8.self) }
                    condition.broadcast()
                }
                if data.isEmpty { return }
            }
        }
    }

    /// Everything, once the writer closed the pipe.
    func waitForEnd() -> String {
        expectBlockingAllowed("Waiting for a child's output to end")
        return condition.withLock {
            condition.wait(until: { ended })
            return text
        }
    }

    /// What came so far.
    func currentText() -> String {
        condition.withLock { text }
    }

    /// The complete lines so far (a line still being written is left out).
    func completeLines() -> [String] {
        condition.withLock {
            text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// Waits until there are more than `count` complete lines; false at `deadline` or the end.
    func waitForMoreLines(than count: Int, until deadline: Date) -> Bool {
        expectBlockingAllowed("Waiting for a child's next output line")
        let until = monotonicTime(after: .seconds(deadline.timeIntervalSinceNow))
        return condition.withLock {
            while text.count(where: { $0 == "\n" }) <= count {
                if ended || !condition.wait(until: until) { return false }
            }
            return true
        }
    }

    /// Waits until a complete line for which `predicate` holds has come (a line may end in "\n"
    /// or a terminal's "\r\n"); nil after `timeout` seconds or at the end of the output.
    func waitForLine(timeout: Double, _ predicate: (String) -> Bool) -> String? {
        expectBlockingAllowed("Waiting for a child's output line")
        let deadline = monotonicTime(after: .seconds(timeout))
        return condition.withLock {
            while true {
                // "\r\n" (a terminal's line end) is one Character in Swift, so it is split on too.
                let complete = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
                    .dropLast(text.last == "\n" || text.last == "\r\n" ? 0 : 1)
                if let line = complete.first(where: { predicate(String($0)) }) { return String(line) }
                if ended || !condition.wait(until: deadline) { return nil }
            }
        }
    }
}
