// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// The client name navigation speech carries in `speech` events.
let navigationClientName = "navigation"
/// The connection number navigation speech is counted under: no connection has it (numbers
/// count up from 1), so its lines go nowhere and no client's pending limit is charged.
let navigationClientID = ClientID.max

/// The screens, rotor and read-all state behind `navigate`.
struct NavigationState {
    /// Why a piece of navigation speech was queued.
    enum Purpose: Hashable {
        /// A focus move, `read`, a rotor or action name, a changed value or the boundary earcon.
        case speech
        /// One stop of a `read-all`: the focus moves there when it starts.
        case readAll(stop: String)
    }

    /// A `read-all` under way: whose screen, the index of the stop to read after the one
    /// speaking, and the sequence number of the one speaking.
    struct ReadAll: Hashable {
        var owner: ClientID
        var next: Int
        var speaking: UInt64
    }

    /// The published screens, one per client, the most recent (the current screen) last.
    var screens: [Screen] = []
    /// The selected rotor's name.
    var selectedRotor: String?
    /// The custom action the `actions` rotor points at: the stop's id and the action's index.
    var chosenAction: (stop: String, index: Int)?
    /// Navigation speech queued or speaking, by sequence number.
    var speech: [UInt64: Purpose] = [:]
    /// The `read-all` under way, if any.
    var readAll: ReadAll?

    /// The current screen: the latest one still published.
    var current: Screen? { screens.last }

    /// Puts `screen` on top, replacing the owner's earlier one.
    mutating func publish(_ screen: Screen) {
        screens.removeAll { $0.owner == screen.owner }
        screens.append(screen)
    }

    /// Forgets `client`'s screen (it disconnected); the one below becomes current if it was on top.
    mutating func remove(owner client: ClientID) {
        screens.removeAll { $0.owner == client }
    }
}
