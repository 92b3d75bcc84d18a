// swift-tools-version:6.1
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "announced",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "announced", targets: ["announced"]),
        .library(name: "AnnounceProtocol", targets: ["AnnounceProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // Wire types: JSON lines in both directions. No NIO, no Foundation, so clients stay light.
        .target(name: "AnnounceProtocol", swiftSettings: strictSwift),
        // The dispatcher: scheduling, elements, localization. Pure logic over a speech backend.
        .target(
            name: "AnnounceCore",
            dependencies: ["AnnounceProtocol", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        .systemLibrary(
            name: "CEspeakNG",
            pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev"])]
        ),
        // espeak-ng on one dedicated thread, and the audio outputs it plays through.
        .target(
            name: "SpeechSynthesis",
            dependencies: ["CEspeakNG", "AnnounceCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        // The Unix socket server: framing, peer credentials, systemd notify and activation.
        .target(
            name: "AnnounceServer",
            dependencies: [
                "AnnounceProtocol", "AnnounceCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "announced",
            dependencies: [
                "AnnounceCore", "AnnounceServer", "SpeechSynthesis",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(name: "AnnounceProtocolTests", dependencies: ["AnnounceProtocol"], swiftSettings: strictSwift),
        .testTarget(name: "AnnounceCoreTests", dependencies: ["AnnounceCore", "AnnounceProtocol"], swiftSettings: strictSwift),
        .testTarget(name: "SpeechSynthesisTests", dependencies: ["SpeechSynthesis", "AnnounceCore"], swiftSettings: strictSwift),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["AnnounceProtocol"],
            swiftSettings: strictSwift
        ),
    ]
)
