// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

extension ScreenNavigator {
    /// Starts reading `screen` from stop `start`, ending a `read-all` already under way: each stop
    /// takes the focus when its speech starts, and the next follows when it has been spoken to
    /// the end.
    mutating func startReadAll(on screen: Screen, from start: Int, _ turn: inout NavigationTurn) {
        turn.effects += endReadAll()
        readAllRuns += 1
        readAll = ReadAll(owner: screen.owner, run: readAllRuns, next: start)
        readNextStop(on: screen, &turn)
    }

    /// A stop's speech began: the focus moves to the stop.
    mutating func readAllStopStarted(_ stop: ReadAllStop) -> [NavigationEffect] {
        guard let readAll, readAll.isReading(stop), let screen = screen(of: readAll.owner) else { return [] }
        chosenAction = nil
        return moveFocus(to: FocusCursor(client: screen.owner, element: stop.element))
    }

    /// A stop's speech ended: spoken to the end (`completed`), the next stop follows (in
    /// `language`); ended early, the `read-all` ends.
    mutating func readAllStopEnded(_ stop: ReadAllStop, completed: Bool, language: String) -> [NavigationEffect] {
        guard let readAll, readAll.isReading(stop) else { return [] }
        guard completed, let screen = screen(of: readAll.owner) else {
            self.readAll = nil
            return []
        }
        var turn = NavigationTurn(language: language, earcons: false)
        readNextStop(on: screen, &turn)
        return turn.effects
    }

    /// Ends the `read-all` under way: its speech stops and nothing more is read.
    mutating func endReadAll() -> [NavigationEffect] {
        guard readAll != nil else { return [] }
        readAll = nil
        return [.stopReadAll]
    }

    /// Speaks the stop the `read-all` reads next; at the end of the screen, or at a stop with
    /// nothing to say, the `read-all` ends.
    private mutating func readNextStop(on screen: Screen, _ turn: inout NavigationTurn) {
        guard let reading = readAll, reading.next < screen.stops.count else {
            readAll = nil
            return
        }
        let stop = screen.stops[reading.next]
        readAll?.next += 1
        let text = stop.spokenText(language: turn.language)
        guard !text.isBlank else {
            readAll = nil
            return
        }
        turn.speak(text, readAllStop: ReadAllStop(run: reading.run, index: reading.next, element: stop.id))
    }
}
