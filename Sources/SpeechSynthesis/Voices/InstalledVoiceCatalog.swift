// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
import POSIXThreads

/// An engine's catalog of the voices installed for it as files (Piper's: `PiperVoiceCatalog`),
/// which the engine makes (`SpeechEngine.makeInstalledVoiceCatalog`) and the daemon reads through
/// ``EngineVoiceCatalogs``: the voices as last seen, kept up to date off the event loops and the
/// main queue, and a way to wait until they reflect every change made before.
public protocol InstalledVoiceCatalog: AnyObject, Sendable {
    /// The voices as last seen; quick (a copy), so it may be read for each post.
    var voices: [VoiceDescription] { get }
    /// Calls `observer` with the new list after each change, on the catalog's thread. Register
    /// before ``startWatching()``.
    func onChange(_ observer: @escaping @Sendable ([VoiceDescription]) -> Void)
    /// Starts watching for voices installed or removed, until ``stopWatching(then:)``.
    func startWatching()
    /// Calls `current` once ``voices`` reflects every change made before this call (at once when
    /// the catalog does not watch); returns at once.
    func whenCurrent(_ current: @escaping @Sendable () -> Void)
    /// Stops watching; `stopped` is called once the watch has ended (at once when it never started).
    func stopWatching(then stopped: @escaping @Sendable () -> Void)
}

/// The installed-voice catalogs of the daemon's engines as one: their voices in the engines'
/// order, current once each is, stopped once each has stopped. An engine without one (espeak-ng,
/// whose helper lists its voices) adds nothing.
public final class EngineVoiceCatalogs: InstalledVoiceCatalog {
    /// Each engine's catalog, in the engines' order.
    let catalogs: [any InstalledVoiceCatalog]

    /// The catalogs `catalogs` as one.
    init(_ catalogs: [any InstalledVoiceCatalog]) {
        self.catalogs = catalogs
    }

    /// Every engine's installed voices, in the engines' order.
    public var voices: [VoiceDescription] { catalogs.flatMap(\.voices) }

    /// Calls `observer` with every engine's voices after a change to any of them.
    public func onChange(_ observer: @escaping @Sendable ([VoiceDescription]) -> Void) {
        for catalog in catalogs { catalog.onChange { [self] _ in observer(voices) } }
    }

    /// Starts each catalog's watch.
    public func startWatching() {
        for catalog in catalogs { catalog.startWatching() }
    }

    /// Calls `current` once every catalog is current.
    public func whenCurrent(_ current: @escaping @Sendable () -> Void) {
        let each = Self.afterAll(catalogs.count, then: current)
        for catalog in catalogs { catalog.whenCurrent(each) }
    }

    /// Stops each catalog's watch; `stopped` once all have stopped.
    public func stopWatching(then stopped: @escaping @Sendable () -> Void) {
        let each = Self.afterAll(catalogs.count, then: stopped)
        for catalog in catalogs { catalog.stopWatching(then: each) }
    }

    /// A callback that calls `then` on its `count`-th call (`then` at once when `count` is 0).
    private static func afterAll(_ count: Int, then: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard count > 0 else {
            then()
            return {}
        }
        let left = LockedValue(count)
        return {
            let last = left.withLock { left in
                left -= 1
                return left == 0
            }
            if last { then() }
        }
    }
}
