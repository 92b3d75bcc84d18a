// SPDX-License-Identifier: GPL-3.0-or-later

/// A connection to the desktop's accessibility bus (AT-SPI), the bus toolkits announce on. Its
/// address comes from at-spi-bus-launcher (`org.a11y.Bus.GetAddress` on the session bus).
public final class AccessibilityBus: Sendable {
    /// The connection to the accessibility bus.
    public let connection: BusConnection

    private static let registry = "org.a11y.atspi.Registry"
    private static let registryPath = "/org/a11y/atspi/registry"
    /// AT-SPI's name for the event, as listeners register it.
    static let announcementEvent = "object:announcement"

    /// The accessibility bus's address, from `org.a11y.Bus.GetAddress` on `session` (which starts
    /// at-spi-bus-launcher by D-Bus activation if it is installed and not running).
    /// - Throws: ``DesktopBusError/callFailed(method:name:message:)`` when nothing provides it.
    public static func address(on session: BusConnection) async throws -> String {
        try await session.call(
            destination: ScreenReaderStatus.busName, path: ScreenReaderStatus.path, interface: "org.a11y.Bus",
            member: "GetAddress"
        ) { try $0.readString() }
    }

    /// Connects to the accessibility bus whose address `session` gives.
    /// - Throws: ``DesktopBusError/accessibilityBusUnavailable(reason:)`` when there is none or it
    ///   cannot be reached; ``DesktopBusError/closed`` when `session` is closed.
    public static func connect(session: BusConnection) async throws -> AccessibilityBus {
        let address: String
        do {
            address = try await Self.address(on: session)
        } catch DesktopBusError.callFailed(_, let name, let message) {
            throw DesktopBusError.accessibilityBusUnavailable(reason: "\(name): \(message)")
        }
        do {
            return AccessibilityBus(connection: try BusConnection.connect(address: address))
        } catch DesktopBusError.connectionFailed(let address, let reason) {
            throw DesktopBusError.accessibilityBusUnavailable(reason: "\(address): \(reason)")
        }
    }

    /// Wraps a connection already open to an accessibility bus.
    public init(connection: BusConnection) {
        self.connection = connection
    }

    /// Every toolkit announcement from now on, in the order they were sent, each with its
    /// sender's application name. Matches the `Announcement` signal, then registers for
    /// `object:announcement` with the registry (bridges emit only events someone registered
    /// for), so by the time this returns, announcements are delivered. Ending the announcements
    /// (the sequence and its iterators gone, or the iterating task cancelled) removes the match
    /// and the registration (the registry keeps one per event and connection: take one sequence
    /// per connection); they finish when the connection closes.
    /// - Throws: ``DesktopBusError`` when the bus refuses the match or no registry answers.
    public func announcements() async throws -> ToolkitAnnouncements {
        let (events, eventInput) = AsyncStream.makeStream(of: AnnouncementSignal.self)
        let match = try await connection.addMatch(
            "type='signal',interface='org.a11y.atspi.Event.Object',member='Announcement'",
            handler: { signal in
                if let event = try? AnnouncementSignal(&signal) { eventInput.yield(event) }
            },
            finished: { eventInput.finish() }
        )
        let connection = self.connection
        do {
            try await connection.call(
                destination: Self.registry, path: Self.registryPath, interface: Self.registry, member: "RegisterEvent",
                arguments: [.string(Self.announcementEvent), .stringArray([]), .string("")]
            ) { _ in }
        } catch {
            connection.remove(match)
            throw error
        }
        eventInput.onTermination = { _ in
            connection.remove(match)
            connection.send(
                destination: Self.registry, path: Self.registryPath, interface: Self.registry,
                member: "DeregisterEvent", arguments: [.string(Self.announcementEvent)])
        }
        return ToolkitAnnouncements(events: events, connection: connection)
    }

    /// Closes the connection; announcement streams finish.
    public func close() {
        connection.close()
    }
}

/// Toolkit announcements in the order they were sent, from ``AccessibilityBus/announcements()``.
/// Each is named after its application by the task that iterates (``ApplicationNames`` asks the
/// bus), before it takes the next, so a later announcement never overtakes one being named.
public struct ToolkitAnnouncements: AsyncSequence, Sendable {
    /// One announcement, with its application's name.
    public typealias Element = ToolkitAnnouncement
    let events: AsyncStream<AnnouncementSignal>
    let connection: BusConnection

    /// Iterates the announcements; names are kept per sender for the iterator's life.
    public func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator(), names: ApplicationNames(connection: connection))
    }

    /// Takes the next announcement signal and names its application.
    public struct Iterator: AsyncIteratorProtocol {
        var events: AsyncStream<AnnouncementSignal>.Iterator
        var names: ApplicationNames

        /// The next announcement, or nil once the connection has closed (or the task was cancelled).
        public mutating func next() async -> ToolkitAnnouncement? {
            guard let event = await events.next() else { return nil }
            let application = await names.name(sender: event.sender, path: event.path)
            return ToolkitAnnouncement(
                text: event.text, politeness: AnnouncementPoliteness(detail: event.detail),
                application: application, sender: event.sender)
        }
    }
}

/// `org.a11y.atspi.Event.Object.Announcement`: `s i i v a{sv}` (kind, detail1 = politeness,
/// detail2, the text as a variant, properties), from the accessible at `path` of `sender`.
struct AnnouncementSignal: Sendable {
    var text: String
    var detail: Int32
    var sender: String
    var path: String

    init(_ signal: inout BusMessageReader) throws {
        sender = signal.sender ?? ""
        path = signal.path ?? ""
        _ = try signal.readString()
        detail = try signal.readInt32()
        _ = try signal.readInt32()
        text = try signal.readVariant { value, signature in
            guard signature == "s" else {
                throw DesktopBusError.unexpectedMessage("Announcement's text is of type \(signature), not s")
            }
            return try value.readString()
        }
    }
}
