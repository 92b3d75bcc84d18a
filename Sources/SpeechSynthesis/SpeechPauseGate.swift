// SPDX-License-Identifier: GPL-3.0-or-later
/// "Hold the output", for the speech thread: `pause` and `resume` of the speech backend.
///
/// The speech thread checks the gate before each output slice (about 5 ms) and before each
/// playout step. When it finds the gate closed it pauses the output (a PulseAudio stream is
/// corked: silent within a few milliseconds, its place kept), writes nothing and waits here, on a
/// condition variable, until `resume` opens the gate or `abort` ends the utterance (`wake`); then
/// it resumes the output, which plays on from its next unplayed sample. The helper's pipe fills and espeak-ng blocks
/// writing to it, so nothing is lost; the helper's silence watchdog counts only while the thread
/// reads, so a long pause does not look like a stuck helper. There is one speech thread per
/// process, hence one gate.
final class SpeechPauseGate: @unchecked Sendable {
    /// The speech thread's gate.
    static let shared = SpeechPauseGate()

    private let condition = ConditionLock()
    private var closed = false

    /// Holds the output from the next slice on.
    func close() {
        condition.lock()
        closed = true
        condition.unlock()
    }

    /// Lets the output continue.
    func open() {
        condition.lock()
        closed = false
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes a waiting thread so that it looks at its abort flag again.
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Whether the gate is closed.
    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    /// Returns at once while the gate is open; otherwise waits until it opens or `isAborted`
    /// turns true (after `wake`). False when it returned because of the abort.
    func waitWhileClosed(isAborted: () -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while closed {
            if isAborted() { return false }
            condition.wait()
        }
        return true
    }
}
