// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
import DesktopBus
public import Logging
import POSIXThreads
public import ServiceLifecycle

/// The Spiel provider as a service of the daemon's group: it connects to the session bus,
/// exports the provider and owns ``SpeechProvider/busName``; on graceful shutdown it ends every
/// open stream and leaves the bus. Without a session bus, or with the name owned by another
/// program, it logs one line and the daemon goes on without it.
public final class SpeechProviderService: Service, Sendable {
    private let provider: SpeechProvider
    private let voices: @Sendable () -> [VoiceDescription]
    private let busAddress: String?
    private let logger: Logger
    private let exported = LockedValue<SpeechProviderObject?>(nil)

    /// The service for `provider`, whose voices are `voices` (the backend's, asked again after
    /// each change), on the session bus at `busAddress` (else where sd-bus finds the user's).
    public init(
        provider: SpeechProvider, voices: @escaping @Sendable () -> [VoiceDescription], busAddress: String?,
        logger: Logger
    ) {
        self.provider = provider
        self.voices = voices
        self.busAddress = busAddress
        self.logger = logger
    }

    /// A voice was installed or removed (any thread): `Voices` changes, with PropertiesChanged.
    public func voicesChanged() {
        guard let object = exported.withLock({ $0 }) else { return }
        object.setVoices(provider.providerVoices(voices()))
    }

    /// Serves until the group's graceful shutdown, then ends every stream and leaves the bus.
    public func run() async {
        let connection: BusConnection
        do {
            connection = try BusConnection.session(address: busAddress)
        } catch {
            logger.notice("not a Spiel speech provider: \(error)")
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
        connection.close()
    }
}
