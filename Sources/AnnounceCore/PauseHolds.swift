// SPDX-License-Identifier: GPL-3.0-or-later

/// Who holds whose speech. Every pause has an owner, the connection that asked for it, and ends
/// when that connection closes (``release(_:)``), so a client that pauses and goes away (closed,
/// crashed, killed) never holds anyone's speech.
///
/// - The whole channel (the native `pause`, SSIP `PAUSE all`): nothing starts, the speaking post
///   holds where it is.
/// - One connection's messages (SSIP `PAUSE self`, `PAUSE <id>`): its speaking message holds
///   where it is, and is set aside while another connection's message could speak
///   (``Dispatcher/updateParking()``); its waiting messages are passed over, so other
///   connections' messages speak as usual.
/// - A native `pause` with `"until":"resume"` (`announcectl pause`) has no owner: it lasts until
///   a `resume`, like `mute`.
struct PauseHolds {
    /// The connections holding the whole channel.
    private(set) var channelOwners: Set<ClientID> = []
    /// A hold of the whole channel that outlives its connection.
    private(set) var channelUntilResume = false
    /// The connections whose messages are held, each with the connections holding them.
    private(set) var heldClients: [ClientID: Set<ClientID>] = [:]

    /// True when the whole channel is held.
    var isChannelHeld: Bool { channelUntilResume || !channelOwners.isEmpty }

    /// True when nothing is held at all.
    var isEmpty: Bool { !isChannelHeld && heldClients.isEmpty }

    /// True when the messages of `client` may not speak.
    func holds(_ client: ClientID) -> Bool { isChannelHeld || heldClients[client] != nil }

    /// True when `client` itself was paused (its own messages, by anyone).
    func holdsOwnMessages(of client: ClientID) -> Bool { heldClients[client] != nil }

    /// `owner` holds the whole channel (`owner` nil: until a resume, whoever asks for it).
    mutating func holdChannel(by owner: ClientID?) {
        if let owner { channelOwners.insert(owner) } else { channelUntilResume = true }
    }

    /// `owner` holds the messages of `client`.
    mutating func hold(_ client: ClientID, by owner: ClientID) {
        heldClients[client, default: []].insert(owner)
    }

    /// Ends every hold: the channel's and every connection's (native `resume`, SSIP `RESUME all`).
    mutating func resumeAll() {
        channelOwners = []
        channelUntilResume = false
        heldClients = [:]
    }

    /// Ends the holds on the messages of `client`, whoever made them (SSIP `RESUME self`,
    /// `RESUME <id>`).
    mutating func resume(_ client: ClientID) {
        heldClients[client] = nil
    }

    /// `client` closed: the holds it made end, and so do the holds on its messages.
    mutating func release(_ client: ClientID) {
        channelOwners.remove(client)
        heldClients[client] = nil
        for (held, owners) in heldClients where owners.contains(client) {
            let rest = owners.subtracting([client])
            heldClients[held] = rest.isEmpty ? nil : rest
        }
    }

    /// True when a hold `client` made is in effect (on the channel or on anyone's messages).
    func isOwner(_ client: ClientID) -> Bool {
        channelOwners.contains(client) || heldClients.values.contains { $0.contains(client) }
    }
}
