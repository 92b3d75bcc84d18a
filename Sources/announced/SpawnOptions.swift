// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser

/// speech-dispatcher's command line for autospawn, which its clients run as `$SPEECHD_CMD` when
/// they cannot connect: `--spawn --communication-method unix_socket --socket-path PATH` (or
/// `inet_socket --port N`). With `SPEECHD_CMD` naming announced, those clients start announced.
struct SpawnOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            """
            Make sure a daemon serves SSIP at --socket-path, then exit: 0 at once when something \
            accepts connections there, else start announced in the background serving it and exit 0 \
            once it does; 1 with the reason otherwise. speech-dispatcher's clients run this as \
            $SPEECHD_CMD (set SPEECHD_CMD to announced's path).
            """
        ))
    var spawn = false

    @Option(
        help: ArgumentHelp(
            "With --spawn: unix_socket (the default); inet_socket is refused, announced serves SSIP on a Unix socket only.",
            valueName: "method"))
    var communicationMethod: CommunicationMethod?

    @Option(
        help: ArgumentHelp(
            "With --spawn: the SSIP socket, default $XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock (speech-dispatcher's).",
            valueName: "path"
        ))
    var socketPath: String?

    @Option(
        help: ArgumentHelp(
            "With --spawn --communication-method inet_socket: the TCP port asked for (refused).", valueName: "port"))
    var port: Int?

    /// Whether any of the options was given.
    var anyGiven: Bool { spawn || communicationMethod != nil || socketPath != nil || port != nil }
}

/// speech-dispatcher's `--communication-method` values.
enum CommunicationMethod: String, ExpressibleByArgument, CaseIterable {
    /// A Unix socket (`--socket-path`).
    case unixSocket = "unix_socket"
    /// TCP (`--port`), which announced does not serve.
    case inetSocket = "inet_socket"
}
