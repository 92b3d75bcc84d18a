// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import ArgumentParser
import Dispatch
import Glibc
import SystemPackage

extension Announcectl {
    /// `navigate`: the keyboard as a VoiceOver cursor over the current screen.
    struct Navigate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Move through the current screen with the keyboard and see what is spoken (? lists the keys, q quits).",
            discussion: NavigationKey.keyMap + """


                The current screen is the one the still-connected app posted last; when that app \
                quits, the screen of the app before it is current again. It prints what is spoken as \
                it starts, and ! end of screen, with a boundary tone, at either end.

                Every key is one navigate request, and each has a one-shot command to bind to a \
                desktop shortcut: next, previous, first, last, activate, increment, decrement, \
                escape, magic-tap, rotor [NAME], rotor-next, rotor-previous, action NAME, read and \
                read-all. They print nothing and exit 0 when done, or 1 with the daemon's message \
                (for example end-of-screen).
                """
        )
        @ParentCommand var parent: Announcectl

        func run() async throws {
            let announcer = parent.makeAnnouncer()
            let events = announcer.events([.speech])
            do { _ = try await announcer.status() } catch { throw fail(error) }
            let terminal = RawTerminal()
            defer { terminal.restore() }
            printLine(
                "announcectl navigate: arrows move, Enter activates, Tab picks a rotor, ? lists the keys, q quits")
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in events {
                        if case .speech(.started(_, let client, let text, _)) = event {
                            printLine(
                                client == "navigation"
                                    ? "» \(text.isEmpty ? "(boundary)" : text)" : "» \(client): \(text)")
                        }
                    }
                }
                for await key in KeyReader.keys() {
                    guard let command = NavigationKey.command(for: key) else { continue }
                    switch command {
                    case .quit:
                        group.cancelAll()
                        return
                    case .help:
                        printLine(NavigationKey.keyMap)
                    case .navigate(let request):
                        do throws(AnnouncerError) {
                            _ = try await announcer.navigate(request)
                        } catch {
                            if case .refused(let code, let message) = error {
                                printLine(code == .endOfScreen ? "! end of screen" : "! \(code.rawValue): \(message)")
                            } else {
                                printLine("! \(error.description)")
                            }
                        }
                    }
                }
                group.cancelAll()
            }
        }
    }
}

/// A key pressed in `announcectl navigate`.
enum Key: Hashable {
    case character(Character)
    case up, down, left, right, home, end, pageUp, pageDown, tab, shiftTab, enter, escape, endOfInput
}

/// What a key does in `announcectl navigate`.
enum NavigationKey {
    /// What a key asks for.
    enum Command: Hashable {
        case navigate(NavigateRequest)
        case help
        case quit
    }

    /// The key map `?` prints.
    static let keyMap = """
        Keys:
          Right, Down, n      next element          Left, Up, p     previous element
          Home, g             first element         End, G          last element
          Enter, Space        activate              Escape          escape (go back)
          +  -                increment, decrement  m               magic tap
          Tab                 next rotor            Shift-Tab       rotor: headings
          ]  PageDown         next rotor item       [  PageUp       previous rotor item
          r                   read the focus again  a               read all from the focus
          ?                   this key map          q, Ctrl-C       quit
        """

    /// The command for `key`, or nil when the key does nothing.
    static func command(for key: Key) -> Command? {
        switch key {
        case .right, .down, .character("n"): return .navigate(NavigateRequest(.next))
        case .left, .up, .character("p"): return .navigate(NavigateRequest(.previous))
        case .home, .character("g"): return .navigate(NavigateRequest(.first))
        case .end, .character("G"): return .navigate(NavigateRequest(.last))
        case .enter, .character(" "): return .navigate(NavigateRequest(.activate))
        case .escape: return .navigate(NavigateRequest(.escape))
        case .character("+"), .character("="): return .navigate(NavigateRequest(.increment))
        case .character("-"): return .navigate(NavigateRequest(.decrement))
        case .character("m"): return .navigate(NavigateRequest(.magicTap))
        case .tab: return .navigate(NavigateRequest(.rotorSelect))
        case .shiftTab: return .navigate(NavigateRequest(.rotorSelect, rotor: BuiltInRotor.headings.rawValue))
        case .pageDown, .character("]"): return .navigate(NavigateRequest(.rotorNext))
        case .pageUp, .character("["): return .navigate(NavigateRequest(.rotorPrevious))
        case .character("r"): return .navigate(NavigateRequest(.read))
        case .character("a"): return .navigate(NavigateRequest(.readAll))
        case .character("?"), .character("h"): return .help
        case .character("q"), .character("\u{03}"), .character("\u{04}"), .endOfInput: return .quit
        default: return nil
        }
    }

    /// The keys in one read of the terminal: escape sequences for arrows and the like, a lone
    /// escape byte for the Escape key.
    static func keys(in bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    continue
                }
                index += 1
                var parameter: [UInt8] = []
                while index < bytes.count, (0x30...0x3F).contains(bytes[index]) {
                    parameter.append(bytes[index])
                    index += 1
                }
                guard index < bytes.count else { continue }
                let final = bytes[index]
                index += 1
                switch (final, parameter) {
                case (UInt8(ascii: "A"), _): keys.append(.up)
                case (UInt8(ascii: "B"), _): keys.append(.down)
                case (UInt8(ascii: "C"), _): keys.append(.right)
                case (UInt8(ascii: "D"), _): keys.append(.left)
                case (UInt8(ascii: "H"), _): keys.append(.home)
                case (UInt8(ascii: "F"), _): keys.append(.end)
                case (UInt8(ascii: "Z"), _): keys.append(.shiftTab)
                case (UInt8(ascii: "~"), [UInt8(ascii: "1")]), (UInt8(ascii: "~"), [UInt8(ascii: "7")]):
                    keys.append(.home)
                case (UInt8(ascii: "~"), [UInt8(ascii: "4")]), (UInt8(ascii: "~"), [UInt8(ascii: "8")]):
                    keys.append(.end)
                case (UInt8(ascii: "~"), [UInt8(ascii: "5")]): keys.append(.pageUp)
                case (UInt8(ascii: "~"), [UInt8(ascii: "6")]): keys.append(.pageDown)
                default: break
                }
            case 0x09: keys.append(.tab)
            case 0x0D, 0x0A: keys.append(.enter)
            default:
                keys.append(.character(Character(Unicode.Scalar(byte))))
            }
        }
        return keys
    }
}

/// Reads keys from standard input on a Dispatch queue of its own (a blocking read, off Swift's
/// cooperative pool).
enum KeyReader {
    /// The keys as they are typed; `.endOfInput` and the end when standard input closes.
    static func keys() -> AsyncStream<Key> {
        AsyncStream { continuation in
            DispatchQueue(label: "announcectl.keys").async {
                var buffer = [UInt8](repeating: 0, count: 64)
                while let count = try? buffer.withUnsafeMutableBytes({ try FileDescriptor.standardInput.read(into: $0) }
                ), count > 0 {
                    for key in NavigationKey.keys(in: Array(buffer[0..<count])) { continuation.yield(key) }
                }
                continuation.yield(.endOfInput)
                continuation.finish()
            }
        }
    }
}

/// The terminal in non-canonical mode without echo, so each key arrives at once; restored on
/// `restore()`. Does nothing when standard input is not a terminal.
final class RawTerminal {
    private var saved: termios?

    init() {
        guard isatty(STDIN_FILENO) == 1 else { return }
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
        saved = settings
        // No line editing, no echo, and Ctrl-C arrives as a key (restoring the terminal on quit).
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        settings.c_iflag &= ~tcflag_t(ICRNL)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }

    /// Puts the terminal back as it was.
    func restore() {
        guard var saved else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        self.saved = nil
    }
}
