import AnnounceProtocol
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore

/// The navigator on its own, without a dispatcher: what it hands back is all it does.
@Suite("ScreenNavigator: effects and answers")
struct ScreenNavigatorTests {
    /// A screen of client 1: a heading, an adjustable value and a button.
    static let elements = [
        Element(id: "title", label: "Timer", traits: [.header]),
        Element(id: "time", label: "Duration", value: "5 minutes", traits: [.adjustable]),
        Element(id: "start", label: "Start", traits: [.button]),
    ]

    func navigator() -> ScreenNavigator {
        var navigator = ScreenNavigator()
        navigator.publish(Self.elements, rotors: [], owner: 1)
        return navigator
    }

    @Test("next moves the focus and speaks the stop; the answer names the focus")
    func next() {
        var navigator = navigator()
        let outcome = navigator.navigate(NavigateRequest(.next), language: "en", earcons: true)
        #expect(
            outcome.effects == [
                .focusMoved(from: nil, to: FocusCursor(client: 1, element: "title")),
                .speak(NavigationSpeech(text: "Timer, heading")),
            ])
        #expect(outcome.answer == .success(["focus": .string("title"), "rotor": .null]))
        #expect(navigator.focus == FocusCursor(client: 1, element: "title"))
    }

    @Test("at the last stop, next is end-of-screen with the boundary earcon only when earcons are on")
    func boundary() {
        var navigator = navigator()
        _ = navigator.navigate(NavigateRequest(.last), language: "en", earcons: true)
        let withEarcon = navigator.navigate(NavigateRequest(.next), language: "en", earcons: true)
        #expect(withEarcon.effects == [.speak(NavigationSpeech(text: "", earcon: .boundary))])
        #expect((try? withEarcon.answer.get()) == nil)
        let without = navigator.navigate(NavigateRequest(.next), language: "en", earcons: false)
        #expect(without.effects.isEmpty)
        #expect(navigator.focus?.element == "start", "the focus stays where it is")
    }

    @Test("read-all speaks one stop at a time: a stop's start takes the focus, its end brings the next")
    func readAll() {
        var navigator = navigator()
        let outcome = navigator.navigate(NavigateRequest(.readAll), language: "en", earcons: true)
        guard case .speak(let first)? = outcome.effects.last, let stop = first.readAllStop else {
            Issue.record("read-all spoke no stop: \(outcome.effects)")
            return
        }
        #expect(stop.element == "title")
        #expect(
            navigator.readAllStopStarted(stop) == [.focusMoved(from: nil, to: FocusCursor(client: 1, element: "title"))]
        )
        let next = navigator.readAllStopEnded(stop, completed: true, language: "en")
        #expect(next.count == 1)
        guard case .speak(let second)? = next.first else { return }
        #expect(second.readAllStop?.element == "time")
        #expect(second.readAllStop?.run == stop.run)
        #expect(
            navigator.readAllStopEnded(stop, completed: true, language: "en").isEmpty,
            "a stop already ended is not read on")
    }

    @Test("the owner disconnecting mid read-all: the focus leaves, the read-all's speech stops, the screen is gone")
    func ownerLeaves() {
        var navigator = navigator()
        _ = navigator.navigate(NavigateRequest(.first), language: "en", earcons: true)
        _ = navigator.navigate(NavigateRequest(.readAll), language: "en", earcons: true)
        #expect(
            navigator.remove(owner: 1) == [
                .focusMoved(from: FocusCursor(client: 1, element: "title"), to: nil),
                .stopReadAll,
            ])
        #expect(navigator.current == nil)
        #expect(navigator.readAll == nil)
    }

    @Test("update by the owner lints the element and speaks the focused element's new value; others are forbidden")
    func update() {
        var navigator = navigator()
        _ = navigator.moveFocus(to: FocusCursor(client: 1, element: "time"))
        let outcome = navigator.update(ElementUpdate(id: "time", value: "6 minutes"), from: 1)
        let changed = Element(id: "time", label: "Duration", value: "6 minutes", traits: [.adjustable])
        #expect(outcome.effects == [.lint(changed, owner: 1), .speak(NavigationSpeech(text: "6 minutes"))])
        #expect(navigator.screen(of: 1)?.element(withID: "time")?.value == "6 minutes")
        let refused = navigator.update(ElementUpdate(id: "time", value: "7 minutes"), from: 2)
        #expect(refused.effects.isEmpty)
        #expect((try? refused.answer.get()) == nil)
    }
}
