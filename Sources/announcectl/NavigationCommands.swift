// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser

/// A one-shot navigation command: one `navigate` request with a fixed action, fast enough to bind
/// to a desktop shortcut. Exit 0 when the daemon answered `ok`, 1 with its message otherwise.
protocol OneShotNavigation: AsyncParsableCommand {
    /// The action it sends.
    static var action: NavigationAction { get }
    /// The parent command, for the socket.
    var parent: Announcectl { get }
}

extension OneShotNavigation {
    func run() async throws {
        try await parent.sendNavigation(NavigateRequest(Self.action))
    }
}

extension Announcectl {
    /// Sends one `navigate` request; prints nothing on success, the daemon's message on error.
    func sendNavigation(_ request: NavigateRequest) async throws {
        do {
            _ = try await makeAnnouncer().navigate(request)
        } catch {
            throw fail(error)
        }
    }

    /// The one-shot navigation subcommands, in the order `--help` lists them.
    static let navigationCommands: [any ParsableCommand.Type] = [
        Next.self, Previous.self, First.self, Last.self, Activate.self, Increment.self, Decrement.self,
        Escape.self, MagicTap.self, Rotor.self, RotorNext.self, RotorPrevious.self, Action.self, Read.self,
        ReadAll.self, Navigate.self,
    ]

    struct Next: OneShotNavigation {
        static let configuration = CommandConfiguration(
            abstract: "Move the focus to the next element of the current screen.")
        static let action = NavigationAction.next
        @ParentCommand var parent: Announcectl
    }

    struct Previous: OneShotNavigation {
        static let configuration = CommandConfiguration(abstract: "Move the focus to the previous element.")
        static let action = NavigationAction.previous
        @ParentCommand var parent: Announcectl
    }

    struct First: OneShotNavigation {
        static let configuration = CommandConfiguration(abstract: "Move the focus to the first element.")
        static let action = NavigationAction.first
        @ParentCommand var parent: Announcectl
    }

    struct Last: OneShotNavigation {
        static let configuration = CommandConfiguration(abstract: "Move the focus to the last element.")
        static let action = NavigationAction.last
        @ParentCommand var parent: Announcectl
    }

    struct Activate: OneShotNavigation {
        static let configuration = CommandConfiguration(
            abstract: "Activate the focused element (or the action chosen with the actions rotor).")
        static let action = NavigationAction.activate
        @ParentCommand var parent: Announcectl
    }

    struct Increment: OneShotNavigation {
        static let configuration = CommandConfiguration(abstract: "Increment the focused adjustable element.")
        static let action = NavigationAction.increment
        @ParentCommand var parent: Announcectl
    }

    struct Decrement: OneShotNavigation {
        static let configuration = CommandConfiguration(abstract: "Decrement the focused adjustable element.")
        static let action = NavigationAction.decrement
        @ParentCommand var parent: Announcectl
    }

    struct Escape: OneShotNavigation {
        static let configuration = CommandConfiguration(
            abstract: "The escape gesture: ask the app to go back or dismiss.")
        static let action = NavigationAction.escape
        @ParentCommand var parent: Announcectl
    }

    struct MagicTap: OneShotNavigation {
        static let configuration = CommandConfiguration(
            commandName: "magic-tap", abstract: "The magic tap: the app's most important action.")
        static let action = NavigationAction.magicTap
        @ParentCommand var parent: Announcectl
    }

    struct RotorNext: OneShotNavigation {
        static let configuration = CommandConfiguration(
            commandName: "rotor-next", abstract: "Move to the next item of the selected rotor.")
        static let action = NavigationAction.rotorNext
        @ParentCommand var parent: Announcectl
    }

    struct RotorPrevious: OneShotNavigation {
        static let configuration = CommandConfiguration(
            commandName: "rotor-previous", abstract: "Move to the previous item of the selected rotor.")
        static let action = NavigationAction.rotorPrevious
        @ParentCommand var parent: Announcectl
    }

    struct Read: OneShotNavigation {
        static let configuration = CommandConfiguration(abstract: "Speak the focused element again.")
        static let action = NavigationAction.read
        @ParentCommand var parent: Announcectl
    }

    struct ReadAll: OneShotNavigation {
        static let configuration = CommandConfiguration(
            commandName: "read-all", abstract: "Speak every element from the focused one to the end.")
        static let action = NavigationAction.readAll
        @ParentCommand var parent: Announcectl
    }

    /// `rotor [NAME]`.
    struct Rotor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Select a rotor: the named one (headings, links, buttons, form-controls, actions or a custom rotor), else the next one with items."
        )
        @ParentCommand var parent: Announcectl

        @Argument(help: "The rotor's name.")
        var name: String?

        func validate() throws {
            if name?.isEmpty == true { throw ValidationError("the rotor's name must not be empty") }
        }

        func run() async throws {
            try await parent.sendNavigation(NavigateRequest(.rotorSelect, rotor: name))
        }
    }

    /// `action NAME`.
    struct Action: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Perform a custom action of the focused element by name.")
        @ParentCommand var parent: Announcectl

        @Argument(help: "The action's name, e.g. \"Delete\".")
        var name: String

        func validate() throws {
            if name.isEmpty { throw ValidationError("the action's name must not be empty") }
        }

        func run() async throws {
            try await parent.sendNavigation(NavigateRequest(.custom, name: name))
        }
    }
}
