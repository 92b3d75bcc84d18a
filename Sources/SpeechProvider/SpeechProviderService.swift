// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import DesktopBus
public import Logging
import POSIXThreads
public import ServiceLifecycle

/// The Spiel provider as a service of the daemon's group: on the daemon's session bus
/// connection it exports the provider and owns ``SpeechProvider/busName``; on graceful shutdown
/// it ends every open stream and withdraws the object (the connection's owner closes it, after
/// this service has returned). Without a session bus (whoever made the connection said so) it
/// waits for the shutdown; with the name owned by another program it logs one line. The daemon
/// goes on without it either way.
public final class SpeechProviderService: Service, Sendable {
    private let provider: SpeechProvider
    private let voices: @Sendable () -> [VoiceDescription]
    private let connection: BusConnection?
    private let logger: Logger
    private let exported = LockedValue<SpeechProviderObject?>(nil)

    /// The service for `provider`, whose voices are `voices` (the backend's, asked again after
    /// each change), on `connection`, the daemon's session bus (nil: there is none).
    public init(
        provider: SpeechProvider, voices: @escaping @Sendable () -> [VoiceDescription], connection: BusConnection?,
        logger: Logger
    ) {
        self.provider = provider
        self.voices = voices
        self.connection = connection
        self.logger = logger
    }

    /// A voice was installed or removed (any thread): `Voices` changes, with PropertiesChanged.
    public func voicesChanged() {
        guard let object = exported.withLock({ $0 }) else { return }
        object.setVoices(provider.providerVoices(voices()))
    }

    /// Serves until the group's graceful shutdown, then ends every stream and withdraws the object.
    public func run() async {
        guard let connection else {
            try? await gracefulShutdown()
            return
        }
        do {
            let provider = self.provider
            let voices = self.voices
            let object = try await SpeechProviderObject.export(
                on: connection, busName: SpeechProvider.busName, providerName: SpeechProvider.displayName,
                voices: provider.providerVoices(voices())
            ) { call in provider.synthesize(call, voices: voices()) }
            exported.withLock { $0 = object }
            logger.info("Spiel speech provider on the session bus", metadata: ["name": "\(SpeechProvider.busName)"])
        } catch {
            logger.notice("not a Spiel speech provider: \(error)")
        }
        try? await gracefulShutdown()
        exported.withLock { $0 }?.withdraw()
        provider.stopStreams()
    }
}
