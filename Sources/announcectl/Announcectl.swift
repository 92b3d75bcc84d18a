// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import AnnouncePOSIX
import ArgumentParser
import Glibc

/// `announcectl`: speak through announced from the shell, and watch what it says.
struct Announcectl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "announcectl",
        abstract: "Speak announcements through announced and see how each one ended.",
        discussion: """
            The socket is --socket, else ANNOUNCED_SOCKET, else $XDG_RUNTIME_DIR/announced/announced.sock, \
            else /tmp/announced-<uid>/announced.sock.

            Exit status: 0 done (with --wait: spoken to the end); 1 the daemon cannot be reached or \
            answered an error; 2 usage error (lint: bad input); 3 not heard: with --wait interrupted, \
            cancelled, muted, dropped or nothing to speak, without it posted while speech is muted \
            (lint: findings).

            Shell completions: announcectl --generate-completion-script bash|zsh|fish
            """,
        version: "0.1.0",
        subcommands: [
            Say.self, Focus.self, ScreenChanged.self, LayoutChanged.self, Stop.self, Pause.self, Resume.self, Mute.self,
            Unmute.self,
            Set.self, Status.self, Monitor.self, Lint.self, Cancel.self, Voices.self, Char.self, Key.self, Sound.self,
            History.self, Repeat.self,
        ] + navigationCommands
    )

    @Option(help: ArgumentHelp("The daemon's Unix socket.", valueName: "path"), completion: .file())
    var socket: String?

    /// An announcer on the chosen socket, named `announcectl` for other clients.
    func makeAnnouncer() -> Announcer {
        Announcer(socketPath: socket, clientName: "announcectl")
    }

    /// Without a command: a usage error (status 2), not the help with status 0.
    func run() async throws {
        throw ValidationError("give a command, e.g. announcectl say --wait \"Hello\"; announcectl --help lists them")
    }
}

/// Runs the command; usage errors exit 2 instead of ArgumentParser's 64.
@main
enum AnnouncectlMain {
    static func main() async {
        do {
            var command = try Announcectl.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(afterReporting: error)
        }
    }

    static func exit(afterReporting error: any Error) -> Never {
        var code = Announcectl.exitCode(for: error)
        let message = Announcectl.fullMessage(for: error)
        if code == .validationFailure { code = ExitCode(ExitStatus.usage) }
        if !message.isEmpty {
            if code.isSuccess {
                print(message)
            } else {
                printToStandardError(message)
            }
        }
        Glibc.exit(code.rawValue)
    }
}
