// SPDX-License-Identifier: Apache-2.0
// The task timer from "Detecting VoiceOver Status Changes", on announced. It publishes its screen
// (a heading, the time as an adjustable element, a start button and a reset button with a custom
// action), so a user drives it with `announcectl navigate` alone; it announces when the task
// completes, and shows its reset button only while speech is running, reacting live to
// `announcectl mute` and `announcectl unmute`.
//
//     swift run TaskTimer --seconds 10        # then, in another terminal: announcectl navigate
//
// On its own terminal: `s` and Return starts, `r` resets (while speech runs), `q` quits.
import AnnounceClient
import Dispatch

@main
@MainActor
enum TaskTimer {
    static let announcer = Announcer(clientName: "TaskTimer")
    /// How long the task takes, in seconds; increment and decrement change it by `step`.
    static var duration = 5
    static let step = 5
    static var remaining = 5
    static var countdown: Task<Void, Never>?
    static var resetShown = false

    static func main() async {
        duration = max(1, Int(value(of: "--seconds") ?? "") ?? 5)
        remaining = duration
        connectActions()
        announcer.screenChanged(elements: elements())
        // viewDidLoad: show the reset button if speech is running, and follow its changes
        // (UIAccessibilityVoiceOverStatusChanged).
        Task { for await status in announcer.statusChanges() { showResetButton(status.isSpeechRunning) } }
        print("Task timer: \(duration) s. Commands: s start, r reset, q quit (or drive it with announcectl navigate).")
        for await command in standardInputLines() {
            switch command {
            case "q": return
            case "s": start()
            case "r" where resetShown: reset()
            case "r": print("There is no reset button while speech is off.")
            default: print("Commands: s, q" + (resetShown ? ", r" : ""))
            }
        }
    }

    // MARK: The screen

    /// The timer's screen, as VoiceOver would see it.
    static func elements() -> [Element] {
        [
            Element(id: "title", label: "Task timer", traits: [.header]),
            Element(
                id: "time", label: "Time", value: timeValue, traits: [.adjustable, .updatesFrequently],
                hint: "Sets how long the task takes."
            ),
            Element(
                id: "start", label: countdown == nil ? "Start" : "Running",
                traits: countdown == nil ? [.button] : [.button, .notEnabled],
                hint: "Starts the countdown."
            ),
            Element(
                id: "reset", label: "Reset", traits: [.button], hint: "Stops the countdown and restores the time.",
                hidden: !resetShown, actions: ["Reset to 1 minute"]
            ),
        ]
    }

    static var timeValue: String { remaining == 1 ? "1 second" : "\(remaining) seconds" }

    /// The user's actions, from `announcectl navigate` or any other navigator.
    static func connectActions() {
        announcer.onActivate { id in
            switch id {
            case "start": start()
            case "reset": reset()
            default: break
            }
        }
        announcer.onIncrement { id in if id == "time" { changeDuration(to: duration + step) } }
        announcer.onDecrement { id in if id == "time" { changeDuration(to: max(1, duration - step)) } }
        announcer.onCustomAction { id, name in
            if id == "reset", name == "Reset to 1 minute" { changeDuration(to: 60) }
        }
        announcer.onMagicTap { start() }
    }

    /// Sets the duration (not while counting down) and shows it; the daemon speaks the new value
    /// when the time has the focus.
    static func changeDuration(to seconds: Int) {
        guard countdown == nil else {
            announcer.announce("The timer is running; reset it first.")
            return
        }
        duration = seconds
        remaining = seconds
        print("Duration: \(timeValue)")
        showTime()
    }

    static func showTime() {
        let value = timeValue
        Task { try? await announcer.update(ElementUpdate(id: "time", value: .some(value))) }
    }

    // MARK: Counting down

    static func start() {
        guard countdown == nil else { return }
        countdown = Task { @MainActor in
            announcer.layoutChanged(elements: elements())
            while remaining > 0 {
                print("\(remaining) s left")
                try? await Task.sleep(for: .seconds(1))
                if Task.isCancelled { return }
                remaining -= 1
                showTime()
            }
            countdown = nil
            let result = await announcer.announce("Task complete")
            print("Task complete (\(result))")
            remaining = duration
            announcer.layoutChanged(elements: elements())
        }
    }

    static func reset() {
        countdown?.cancel()
        countdown = nil
        remaining = duration
        print("Reset: \(timeValue)")
        announcer.layoutChanged(elements: elements())
    }

    /// Shows or hides the reset button, like `taskResetButton.hidden = !UIAccessibilityIsVoiceOverRunning()`.
    static func showResetButton(_ show: Bool) {
        guard show != resetShown else { return }
        resetShown = show
        print(
            show
                ? "Speech is on: the reset button is shown (r and Return resets)."
                : "Speech is off: the reset button is hidden.")
        announcer.layoutChanged(elements: elements())
    }

    // MARK: Input

    /// The lines typed on standard input, without the spaces around them, read on a queue of
    /// their own (a blocking read, kept off Swift's cooperative threads).
    static func standardInputLines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        DispatchQueue(label: "standard-input").async {
            while let line = readLine() {
                continuation.yield(
                    String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()))
            }
            continuation.finish()
        }
        return stream
    }

    /// The value after `flag` on the command line.
    static func value(of flag: String) -> String? {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
}
