// SPDX-License-Identifier: GPL-3.0-or-later

/// The desktop's answer to "is a screen reader running?": the `ScreenReaderEnabled` property of
/// `org.a11y.Status` on the session bus (owned by at-spi-bus-launcher as `org.a11y.Bus`, object
/// `/org/a11y/bus`; GNOME sets it while Orca runs). The Linux counterpart of
/// `UIAccessibility.isVoiceOverRunning` and its change notification.
public enum ScreenReaderStatus {
    static let busName = "org.a11y.Bus"
    static let path = "/org/a11y/bus"
    static let interface = "org.a11y.Status"
    static let property = "ScreenReaderEnabled"

    /// Reads `ScreenReaderEnabled` once.
    /// - Throws: ``DesktopBusError/callFailed(method:name:message:)`` (its name
    ///   `org.freedesktop.DBus.Error.ServiceUnknown` when no at-spi-bus-launcher runs), or
    ///   ``DesktopBusError/closed``.
    public static func isEnabled(on session: BusConnection) async throws -> Bool {
        try await session.call(
            destination: busName, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
            arguments: [.string(interface), .string(property)]
        ) { reply in
            try reply.readVariant { value, signature in
                guard signature == "b" else {
                    throw DesktopBusError.unexpectedMessage("\(property) is of type \(signature), not b")
                }
                return try value.readBool()
            }
        }
    }

    /// Watches `ScreenReaderEnabled`: its value now, and its values each time the owner reports a
    /// change (`PropertiesChanged`), in the order reported. The signal match is in place before
    /// the value is read, so no change between the two is lost. The changes finish when the
    /// connection closes; ending them removes the match.
    /// - Throws: what ``isEnabled(on:)`` throws.
    public static func watch(on session: BusConnection) async throws -> (isEnabled: Bool, changes: Changes) {
        let (signals, continuation) = AsyncStream.makeStream(of: Change.self)
        let rule =
            "type='signal',sender='\(busName)',path='\(path)',interface='org.freedesktop.DBus.Properties',"
            + "member='PropertiesChanged',arg0='\(interface)'"
        let match = try await session.addMatch(
            rule,
            handler: { signal in continuation.yield(changedValue(in: &signal)) },
            finished: { continuation.finish() }
        )
        continuation.onTermination = { _ in session.remove(match) }
        do {
            return (try await isEnabled(on: session), Changes(signals: signals, session: session))
        } catch {
            continuation.finish()
            throw error
        }
    }

    /// The values of `ScreenReaderEnabled`, one for each change its owner reports, in the order
    /// reported. A change that only invalidates the property is read again (`Get`) by the task
    /// that iterates, before it takes the next change, so an older value never follows a newer one.
    public struct Changes: AsyncSequence, Sendable {
        /// Each value is whether a screen reader runs.
        public typealias Element = Bool
        fileprivate let signals: AsyncStream<Change>
        fileprivate let session: BusConnection

        /// Iterates the changes in the order the owner reported them.
        public func makeAsyncIterator() -> Iterator {
            Iterator(signals: signals.makeAsyncIterator(), session: session)
        }

        /// Takes the next reported change; reads the property again for an invalidation.
        public struct Iterator: AsyncIteratorProtocol {
            fileprivate var signals: AsyncStream<Change>.Iterator
            fileprivate let session: BusConnection

            /// The next value, or nil once the connection has closed.
            public mutating func next() async -> Bool? {
                while let change = await signals.next() {
                    switch change {
                    case .value(let enabled): return enabled
                    case .invalidated:
                        if let enabled = try? await isEnabled(on: session) { return enabled }
                    case .unchanged: continue
                    }
                }
                return nil
            }

        }
    }

    fileprivate enum Change: Sendable {
        case value(Bool)
        case invalidated
        case unchanged
    }

    /// What a `PropertiesChanged(s interface, a{sv} changed, as invalidated)` says about the property.
    private static func changedValue(in signal: inout BusMessageReader) -> Change {
        do {
            _ = try signal.readString()
            var value: Bool?
            try signal.readPropertyMap { key, entry in
                guard key == property else { return false }
                value = try entry.readVariant { inner, signature in signature == "b" ? try inner.readBool() : nil }
                return true
            }
            if let value { return .value(value) }
            return try signal.readStringArray().contains(property) ? .invalidated : .unchanged
        } catch {
            return .unchanged
        }
    }
}
