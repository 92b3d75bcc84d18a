import AnnounceClient
public import ArgumentParser

/// The `--wait` flag shared by every posting command.
struct WaitOption: ParsableArguments {
    @Flag(help: "Wait until the post ends, print how it ended, and exit 0 only if it was spoken to the end.")
    var wait = false
}

extension Announcer {
    /// Sends `post`; with `wait`, waits for its end and prints it. Returns the exit status.
    func send(_ post: SpeechPost, wait: Bool) async -> Int32 {
        if wait {
            let result = await self.post(post)
            report(result)
            return ExitStatus.of(result)
        }
        switch await enqueue(post) {
        case .queued:
            return ExitStatus.success
        case .refused(let result):
            report(result)
            return ExitStatus.of(result)
        }
    }
}

extension Priority: ExpressibleByArgument {}
extension Trait: ExpressibleByArgument {}
