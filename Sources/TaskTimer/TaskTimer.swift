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
    /// The running countdown's number, nil when none runs: a reset ends it by clearing this, so a
    /// countdown that sees another number (or none) after its sleep stops without a word.
    static var countdown: Int?
    static var countdowns = 0
    static var resetShown = false
    /// What the timer's one task group does next, from the keyboard and the announcer's callbacks.
    static let work = AsyncStream.makeStream(of: Work.self)

    /// Work for the task group of ``main()``.
    enum Work {
        /// A line typed on standard input; nil when the input ended.
        case line(String?)
        /// Run countdown number `n`.
        case countDown(Int)
        /// Send the time's new value to the daemon.
        case showTime(String)
    }

    static func main() async {
        duration = max(1, Int(value(of: "--seconds") ?? "") ?? 5)
        remaining = duration
        connectActions()
        announcer.screenChanged(elements: elements())
        readStandardInput()
        print("Task timer: \(duration) s. Commands: s start, r reset, q quit (or drive it with announcectl navigate).")
        let announcer = announcer
        await withTaskGroup(of: Void.self) { group in
            // viewDidLoad: show the reset button if speech is running, and follow its changes
            // (UIAccessibilityVoiceOverStatusChanged).
            group.addTask {
                for await status in announcer.statusChanges() { await showResetButton(status.isSpeechRunning) }
            }
            loop: for await next in work.stream {
                switch next {
                case .line(nil), .line("q"): break loop
                case .line(let command?): handle(command)
                case .countDown(let number): group.addTask { await countDown(number) }
                case .showTime(let value):
                    group.addTask { try? await announcer.update(ElementUpdate(id: "time", value: .some(value))) }
                }
            }
            group.cancelAll()
        }
    }

    /// A command typed on the timer's own terminal.
    static func handle(_ command: String) {
        switch command {
        case "s": start()
        case "r" where resetShown: reset()
        case "r": print("There is no reset button while speech is off.")
        default: print("Commands: s, q" + (resetShown ? ", r" : ""))
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
        work.continuation.yield(.showTime(timeValue))
    }

    // MARK: Counting down

    /// Starts a countdown, unless one runs; the task group of ``main()`` runs it.
    static func start() {
        guard countdown == nil else { return }
        countdowns += 1
        countdown = countdowns
        announcer.layoutChanged(elements: elements())
        work.continuation.yield(.countDown(countdowns))
    }

    /// Counts down a second at a time while it is countdown `number` (a reset, or the end of the
    /// program, stops it), then announces that the task is complete.
    static func countDown(_ number: Int) async {
        while remaining > 0 {
            print("\(remaining) s left")
            try? await Task.sleep(for: .seconds(1))
            if Task.isCancelled || countdown != number { return }
            remaining -= 1
            showTime()
        }
        countdown = nil
        let result = await announcer.announce("Task complete")
        print("Task complete (\(result))")
        remaining = duration
        announcer.layoutChanged(elements: elements())
    }

    static func reset() {
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

    /// Hands the lines typed on standard input, without the spaces around them, to ``main()``'s
    /// task group, then nil at the end of the input; read on a queue of their own (a blocking
    /// read, kept off Swift's cooperative threads).
    static func readStandardInput() {
        let continuation = work.continuation
        DispatchQueue(label: "standard-input").async {
            while let line = readLine() {
                continuation.yield(
                    .line(String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())))
            }
            continuation.yield(.line(nil))
        }
    }

    /// The value after `flag` on the command line.
    static func value(of flag: String) -> String? {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
}
