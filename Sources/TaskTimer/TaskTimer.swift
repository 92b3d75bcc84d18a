// The task timer from "Detecting VoiceOver Status Changes", on announced: it announces when the
// task completes, and offers its reset action as a visible command only while speech is running,
// reacting live to `announcectl mute` and `announcectl unmute`.
//
//     swift run TaskTimer --seconds 3
//
// Type `r` and Return to reset (shown only while speech runs), `q` to quit.
import AnnounceClient
import Foundation

@main
@MainActor
enum TaskTimer {
    static let announcer = Announcer(clientName: "TaskTimer")
    static var resetShown = false

    static func main() async {
        let seconds = Int(value(of: "--seconds") ?? "") ?? 5
        let commands = standardInputLines()
        // viewDidLoad: show the reset command if speech is running, and follow its changes
        // (UIAccessibilityVoiceOverStatusChanged).
        Task { for await status in announcer.statusChanges() { showResetCommand(status.isSpeechRunning) } }
        while true {
            await countDown(from: seconds)
            let result = await announcer.announce("Task complete")
            print("Task complete (\(result))")
            guard await waitForReset(commands) else { return }
        }
    }

    /// Shows or hides the reset command, like `taskResetButton.hidden = !UIAccessibilityIsVoiceOverRunning()`.
    static func showResetCommand(_ show: Bool) {
        guard show != resetShown else { return }
        resetShown = show
        print(show ? "Speech is on: type r and Return to reset the timer." : "Speech is off: the reset command is hidden.")
    }

    static func countDown(from seconds: Int) async {
        for remaining in stride(from: seconds, to: 0, by: -1) {
            print("\(remaining) s left")
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Waits for `r` (honoured only while the reset command is shown); false on `q` or end of input.
    static func waitForReset(_ commands: AsyncStream<String>) async -> Bool {
        for await command in commands {
            switch command {
            case "q": return false
            case "r" where resetShown: return true
            case "r": print("There is no reset command while speech is off.")
            default: print("Commands: q" + (resetShown ? ", r" : ""))
            }
        }
        return false
    }

    /// The lines typed on standard input, read on their own thread.
    static func standardInputLines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        Thread.detachNewThread {
            while let line = readLine() { continuation.yield(line.trimmingCharacters(in: .whitespaces)) }
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
