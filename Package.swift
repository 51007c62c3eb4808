// swift-tools-version: 6.1
// Orchard: open implementations of Core Data, HealthKit Medications, Network and SwiftUI's app model on Linux.
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Orchard",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "OpenCoreData", targets: ["OpenCoreData"]),
        .executable(name: "coredata-tool", targets: ["coredata-tool"]),
        .library(name: "OpenNetwork", targets: ["OpenNetwork"]),
        .library(name: "WiFiAware", targets: ["WiFiAware"]),
        .library(name: "SwiftUIWeb", targets: ["SwiftUIWeb"]),
        .library(name: "Charts", targets: ["Charts"]),
        .library(name: "Combine", targets: ["Combine"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
        .library(name: "UserNotifications", targets: ["UserNotifications"]),
        .library(name: "OpenHealthKit", targets: ["OpenHealthKit"]),
        .library(name: "OpenHealthKitUI", targets: ["OpenHealthKitUI"]),
        .executable(name: "Meds", targets: ["Meds"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // MARK: OpenCoreData
        // scripts/sanitize builds the targets from here to "End of OpenCoreData's suite" in a package of its own.
        .target(
            name: "OpenCoreData",
            dependencies: [
                "OpenCoreDataMacros",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The @Managed macro (in place of @NSManaged): accessors through the object's values.
        .macro(
            name: "OpenCoreDataMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "OpenCoreDataTests",
            dependencies: [
                "OpenCoreData", "CoreDataProbe", "AircraftMigration", "MigrationCrashWorker", "coredata-tool",
                "TestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // What the test targets share: blocking work kept off Swift's cooperative pool.
        .target(
            name: "TestSupport", dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/TestSupport"),
        // Second processes for the tests: one writes or dumps a store, one runs a migration to be killed.
        .executableTarget(name: "CoreDataProbe", dependencies: ["OpenCoreData"], path: "Tests/Probes/CoreDataProbe"),
        .executableTarget(
            name: "AircraftMigration", dependencies: ["OpenCoreData"], path: "Examples/AircraftMigration",
            resources: [
                .copy("Models/modelV1.xcdatamodel"), .copy("Models/modelV2.xcdatamodel"),
                .copy("Models/modelV3.xcdatamodel"),
            ]
        ),
        .executableTarget(
            name: "AircraftLog", dependencies: ["OpenCoreData"], path: "Examples/AircraftLog",
            exclude: ["FlightLog.xcdatamodeld"]
        ),
        .executableTarget(
            name: "coredata-tool",
            dependencies: ["OpenCoreData", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tools/coredata-tool"
        ),
        .executableTarget(
            name: "MigrationCrashWorker", dependencies: ["OpenCoreData"], path: "Tests/Probes/MigrationCrashWorker"),
        // End of OpenCoreData's suite (scripts/sanitize).
        // The benchmarks' shared harness: statistics, alternating runs, result files, SQLite's C API.
        .target(
            name: "BenchmarkKit",
            dependencies: ["BenchmarkKitC", .product(name: "GRDBSQLite", package: "GRDB.swift")],
            path: "Benchmarks/BenchmarkKit"
        ),
        .target(name: "BenchmarkKitC", path: "Benchmarks/BenchmarkKitC"),
        .executableTarget(
            name: "MigrationBenchmark",
            dependencies: ["BenchmarkKit", "OpenCoreData"],
            path: "Benchmarks/MigrationBenchmark"
        ),
        .executableTarget(
            name: "CoreDataBenchmark",
            dependencies: ["BenchmarkKit", "OpenCoreData", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/CoreDataBenchmark"
        ),

        // MARK: OpenNetwork
        .target(
            name: "OpenNetwork",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Wi-Fi Aware's types, so code written for Apple's systems compiles; using them fails (no Linux support).
        .target(name: "WiFiAware", dependencies: ["OpenNetwork"]),

        .testTarget(
            name: "OpenNetworkTests",
            dependencies: [
                "OpenNetwork", "TicTacToe", "DiscoveryProbe", "TestSupport",
                "SeedNetworkTLS", "SeedNetworkIPOptions", "SeedNetworkParameters", "SeedNetworkSendReceive",
                "SeedNetworkChunks", "SeedNetworkTLV", "SeedNetworkCoder", "SeedNetworkWiFiAware", "WiFiAware",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // An independent WebSocket implementation to test ours against, both ways.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ]),
        .executableTarget(
            name: "TicTacToe", dependencies: ["OpenNetwork", .product(name: "Crypto", package: "swift-crypto")],
            path: "Examples/TicTacToe"),
        // The network seed's samples, extracted from ../shared/seeds at build time and compiled against OpenNetwork.
        .target(
            name: "SeedNetworkTLS", dependencies: ["OpenNetwork"], path: "Tests/SeedSamples/SeedNetworkTLS",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .target(
            name: "SeedNetworkIPOptions", dependencies: ["OpenNetwork"], path: "Tests/SeedSamples/SeedNetworkIPOptions",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .target(
            name: "SeedNetworkParameters", dependencies: ["OpenNetwork"],
            path: "Tests/SeedSamples/SeedNetworkParameters",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .target(
            name: "SeedNetworkSendReceive", dependencies: ["OpenNetwork"],
            path: "Tests/SeedSamples/SeedNetworkSendReceive",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .target(
            name: "SeedNetworkChunks", dependencies: ["OpenNetwork"], path: "Tests/SeedSamples/SeedNetworkChunks",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .target(
            name: "SeedNetworkTLV", dependencies: ["OpenNetwork"], path: "Tests/SeedSamples/SeedNetworkTLV",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .target(
            name: "SeedNetworkCoder", dependencies: ["OpenNetwork"], path: "Tests/SeedSamples/SeedNetworkCoder",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .target(
            name: "SeedNetworkWiFiAware", dependencies: ["OpenNetwork", "WiFiAware"],
            path: "Tests/SeedSamples/SeedNetworkWiFiAware", exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        // A second host for the discovery tests, run inside network namespaces the tests create.
        .executableTarget(
            name: "DiscoveryProbe", dependencies: ["OpenNetwork", .product(name: "Logging", package: "swift-log")],
            path: "Tests/Probes/DiscoveryProbe"),
        .executableTarget(
            name: "DiscoveryBenchmark", dependencies: ["BenchmarkKit", "TestSupport"],
            path: "Benchmarks/DiscoveryBenchmark"),
        .executableTarget(
            name: "NetworkBenchmark",
            dependencies: [
                "BenchmarkKit",
                "OpenNetwork",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ],
            path: "Benchmarks/NetworkBenchmark"
        ),

        // MARK: SwiftUIWeb
        // UTType: Apple's UniformTypeIdentifiers, so `import UniformTypeIdentifiers` compiles unchanged.
        .target(name: "UniformTypeIdentifiers"),
        .target(name: "CombineAdditions", dependencies: [.product(name: "OpenCombine", package: "OpenCombine")]),
        // #Preview and @Previewable: records the preview gallery finds in the binary.
        .macro(
            name: "SwiftUIWebMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "SwiftUIWeb",
            dependencies: [
                "SwiftUIWebMacros",
                "CombineAdditions",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                "UniformTypeIdentifiers",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "Charts", dependencies: ["SwiftUIWeb"]),
        .target(
            name: "Combine",
            dependencies: [
                "CombineAdditions",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "OpenCombineFoundation", package: "OpenCombine"),
            ]),
        .target(name: "SwiftUIWebDriver", path: "Sources/SwiftUIWebDriver"),
        .testTarget(
            name: "SwiftUIWebTests",
            dependencies: [
                "SwiftUIWeb", "SwiftUIWebDriver", "BookClub", "Groceries", "UniformTypeIdentifiers", "Charts",
                "Combine", "OpenHealthKit", "OpenHealthKitUI",
                "SeedDocumentApp", "SeedSettingsApp", "SeedCommandsApp", "PlainText", "Sketch", "Recipes", "LiveCharts",
                "Gallery", "TestSupport", "UserNotifications",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .executableTarget(name: "BookClub", dependencies: ["SwiftUIWeb"], path: "Examples/BookClub"),
        .executableTarget(name: "Groceries", dependencies: ["SwiftUIWeb"], path: "Examples/Groceries"),
        .executableTarget(
            name: "PlainText", dependencies: ["SwiftUIWeb", "UniformTypeIdentifiers"], path: "Examples/PlainText"),
        .executableTarget(
            name: "Sketch", dependencies: ["SwiftUIWeb", "UniformTypeIdentifiers"], path: "Examples/Sketch"),
        .executableTarget(name: "Recipes", dependencies: ["SwiftUIWeb"], path: "Examples/Recipes"),
        .executableTarget(name: "LiveCharts", dependencies: ["SwiftUIWeb", "Charts"], path: "Examples/LiveCharts"),
        .executableTarget(name: "Gallery", dependencies: ["SwiftUIWeb"], path: "Examples/Gallery"),
        // The seed's document, Settings and commands samples, extracted from ../shared/seeds at build time.
        .executableTarget(name: "seed-extract", path: "Tools/seed-extract"),
        .plugin(name: "SeedSamples", capability: .buildTool(), dependencies: ["seed-extract"]),
        .executableTarget(
            name: "SeedDocumentApp", dependencies: ["SwiftUIWeb", "UniformTypeIdentifiers"],
            path: "Tests/SeedSamples/SeedDocumentApp",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .executableTarget(
            name: "SeedSettingsApp", dependencies: ["SwiftUIWeb"], path: "Tests/SeedSamples/SeedSettingsApp",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .executableTarget(
            name: "SeedCommandsApp", dependencies: ["SwiftUIWeb"], path: "Tests/SeedSamples/SeedCommandsApp",
            exclude: ["seed-sample.json"], plugins: ["SeedSamples"]),
        .executableTarget(
            name: "SwiftUIWebBenchmark",
            dependencies: [
                "BenchmarkKit", "SwiftUIWeb", "SwiftUIWebDriver", "UniformTypeIdentifiers",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/SwiftUIWebBenchmark"
        ),

        // MARK: OpenHealthKit
        .target(
            name: "OpenHealthKit",
            dependencies: ["OpenCoreData", "OpenNetwork", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("Catalog/Resources/rxnorm-catalog.csv")]),
        .target(name: "OpenHealthKitUI", dependencies: ["OpenHealthKit", "SwiftUIWeb"]),
        .executableTarget(name: "orchard-healthd", dependencies: ["OpenHealthKit"], path: "Tools/orchard-healthd"),
        .executableTarget(name: "HealthProbe", dependencies: ["OpenHealthKit"], path: "Tests/Probes/HealthProbe"),
        .testTarget(
            name: "OpenHealthKitTests",
            dependencies: ["OpenHealthKit", "MedicationsSample", "TestSupport", "HealthProbe", "orchard-healthd"]),
        .executableTarget(
            name: "MedicationsSample", dependencies: ["OpenHealthKit"], path: "Examples/MedicationsSample"),
        .executableTarget(
            name: "ChartsBenchmark", dependencies: ["BenchmarkKit", "Charts", "SwiftUIWeb"],
            path: "Benchmarks/ChartsBenchmark"),
        .executableTarget(
            name: "HealthKitBenchmark",
            dependencies: ["BenchmarkKit", "OpenHealthKit", "orchard-healthd"],
            path: "Benchmarks/HealthKitBenchmark"
        ),

        // MARK: Meds, the medication tracker on all four modules
        // MedsKit: the app's data, rules and actions (no views); MedsUI: its views; Meds: the App and its scenes.
        .target(
            name: "MedsKit",
            dependencies: ["OpenCoreData", "OpenHealthKit", "OpenNetwork", .product(name: "Crypto", package: "swift-crypto")],
            resources: [
                .copy("Store/Models/MedsV1.xcdatamodel"), .copy("Store/Models/MedsV2.xcdatamodel"),
                .copy("Store/Models/MedsV3.xcdatamodel"),
            ]),
        .target(
            name: "MedsUI", dependencies: ["MedsKit", "SwiftUIWeb", "Charts", "UniformTypeIdentifiers", "UserNotifications"]),
        // UserNotifications: UNUserNotificationCenter, delivered by a SwiftUIWeb app's browser windows.
        .target(name: "UserNotifications", dependencies: ["SwiftUIWeb"]),
        .executableTarget(name: "Meds", dependencies: ["MedsKit", "MedsUI", "SwiftUIWeb"]),
        .testTarget(
            name: "MedsTests",
            dependencies: ["MedsKit", "MedsUI", "Meds", "MedsProbe", "SwiftUIWeb", "SwiftUIWebDriver", "TestSupport"]),
        .executableTarget(
            name: "MedsBenchmark",
            dependencies: ["BenchmarkKit", "MedsKit", "MedsUI", "OpenHealthKit", "OpenNetwork", "SwiftUIWeb"],
            path: "Benchmarks/MedsBenchmark"),
        // A second process for Meds' tests: writes through MedsKit until a test kills it.
        .executableTarget(name: "MedsProbe", dependencies: ["MedsKit"], path: "Tests/Probes/MedsProbe"),
    ],
    swiftLanguageModes: [.v6]
)
