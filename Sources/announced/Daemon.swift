import AnnounceCore
import AnnounceProtocol
import AnnounceServer
import Foundation
import Logging
import ServiceLifecycle
import SpeechSynthesis

/// Why the daemon could not start: one line that says what to do.
struct StartupError: Error, CustomStringConvertible {
    var description: String
}

/// Wires the daemon together: speech engine, dispatcher, server, signals.
struct Daemon {
    let options: Announced
    let environment: [String: String]
    let logger: Logger

    func run() async throws {
        var dispatcherConfiguration = DispatcherConfiguration()
        dispatcherConfiguration.version = Announced.version
        if let voice = options.voice { dispatcherConfiguration.voice = voice }
        if let rate = options.rate { dispatcherConfiguration.rate = rate }

        let socketPath = SocketLocation.resolve(flag: options.socket, config: nil, environment: environment)
        var serverConfiguration = ServerConfiguration(
            socketPath: socketPath, activationSocket: Systemd.activationSocket(environment: environment)
        )
        serverConfiguration.limits = DecodingLimits(maxTextChars: dispatcherConfiguration.maxTextChars)

        let output = try AudioOutputFactory(logger: logger).makeOutput(options.audio ?? .auto)
        let dispatcher = await MainActor.run {
            Dispatcher(configuration: dispatcherConfiguration, logger: Logger(label: "announced.dispatcher"))
        }
        let engine: EspeakSpeechEngine
        do {
            engine = try EspeakSpeechEngine(
                output: output, logger: Logger(label: "announced.speech"), eventHandler: dispatcher.backendEventHandler
            )
        } catch {
            throw StartupError(description: "\(error)")
        }
        await dispatcher.attach(engine)
        if await !dispatcher.knowsVoice(dispatcherConfiguration.voice) {
            throw StartupError(description: "espeak-ng has no voice \"\(dispatcherConfiguration.voice)\"; `espeak-ng --voices` lists them")
        }

        let environment = self.environment
        let server = AnnounceServer(
            configuration: serverConfiguration, dispatcher: dispatcher, logger: logger,
            onReady: { Systemd.notify("READY=1", environment: environment) }
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: server)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        do {
            try await group.run()
        } catch let error as SocketSetupError {
            throw StartupError(description: error.description)
        } catch {
            throw StartupError(description: "cannot serve \(socketPath): \(error)")
        }
    }
}
