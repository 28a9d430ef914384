// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MobilityPipeline",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "pipeline", targets: ["pipeline"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2")
    ],
    targets: [
        // C libraries come in through one door each (see STYLE.md, "C libraries").
        .systemLibrary(name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
        .systemLibrary(name: "CGZip", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CBLAS", providers: [.apt(["libopenblas-dev", "liblapacke-dev"])]),
        // SHA-256 of inputs (ContentHash): Debian's libcrypto instead of building BoringSSL.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // glibc's allocator settings (`LargeBlocks`): part of libc, nothing to install.
        .systemLibrary(name: "CMalloc"),

        .target(name: "MobilityCore", dependencies: ["CMalloc"], exclude: ["README.md"]),
        .target(
            name: "Ingest",
            dependencies: [
                "MobilityCore", "CExpat", "CGZip", "CCrypto",
                .product(name: "ZIPFoundation", package: "ZIPFoundation")
            ],
            exclude: ["README.md"],
            // The readers are the hot path; their buffers are owned by one parse at a time, so
            // run-time exclusivity checks buy nothing. Measured 2026-11-23, two clean release
            // builds alternating (median of 7): `inspect` of the 60 MB real-points GPX 0.60 s
            // with the checks, 0.36 s without; `features` of 1 h of real IMU 0.72 s vs 0.68 s.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        .target(
            name: "Store",
            dependencies: [
                "MobilityCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift")
            ],
            exclude: ["README.md"]
        ),
        .target(
            name: "Reports",
            dependencies: [
                "MobilityCore", "Ingest", "Store", "Features", "Classify", "Trips", "HeatMaps", "Comfort", "Publication", "CPNG",
                "CFreeType",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")
            ],
            exclude: ["README.md"]),
        .target(name: "HeatMaps", dependencies: ["MobilityCore"], exclude: ["README.md"]),
        .target(name: "Comfort", dependencies: ["MobilityCore", "Features", "CBLAS"], exclude: ["README.md"]),
        // Every decision that combines stages' evidence (above all a leg's mode), one home for it.
        .target(
            name: "Fusion", dependencies: ["MobilityCore", "Features", "Transit", "Classify", "Trips", "Comfort"], exclude: ["README.md"]),
        // Every published number, computed once, and its disclosure audit across the tables.
        .target(name: "Publication", dependencies: ["MobilityCore", "Trips", "HeatMaps", "Comfort"], exclude: ["README.md"]),
        .target(
            name: "PipelineRunner",
            dependencies: [
                "MobilityCore", "Ingest", "Store", "Reports", "Features", "Classify", "Fusion", "Trips", "Transit", "HeatMaps", "Comfort",
                "Publication", .product(name: "Yams", package: "Yams")
            ],
            exclude: ["README.md"]
        ),
        .target(name: "Features", dependencies: ["MobilityCore", "CBLAS"], exclude: ["README.md"]),
        .target(name: "Classify", dependencies: ["MobilityCore", "Ingest", "Features", "CBLAS"], exclude: ["README.md"]),
        .target(name: "Trips", dependencies: ["MobilityCore", "Transit"], exclude: ["README.md"]),
        .target(name: "Transit", dependencies: ["MobilityCore", "Ingest"], exclude: ["README.md"]),
        .target(
            name: "Simulate", dependencies: ["MobilityCore", "CGZip", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            exclude: ["README.md"]),
        .executableTarget(
            name: "pipeline",
            dependencies: [
                "MobilityCore", "Ingest", "Store", "PipelineRunner", "Features", "Classify", "Fusion", "Reports", "Simulate", "HeatMaps",
                "Trips", "Comfort", "Publication",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "pipeline-bench",
            dependencies: [
                "MobilityCore", "Ingest", "Store", "Features", "Classify", "Fusion", "PipelineRunner", "TestSupport", "Trips", "Simulate"
            ],
            path: "Benchmarks/pipeline-bench"
        ),
        .target(name: "TestSupport", dependencies: ["MobilityCore", "Features", "CGZip"], exclude: ["README.md"]),
        .testTarget(name: "MobilityCoreTests", dependencies: ["MobilityCore", "TestSupport", "CMalloc"]),
        .testTarget(
            name: "IngestTests",
            dependencies: ["Ingest", "MobilityCore", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Ingest", "MobilityCore", "PipelineRunner", "TestSupport"]),
        .testTarget(name: "FeaturesTests", dependencies: ["Features", "MobilityCore", "TestSupport"]),
        .testTarget(name: "ClassifyTests", dependencies: ["Classify", "Features", "MobilityCore", "TestSupport"]),
        .testTarget(
            name: "FusionTests", dependencies: ["Fusion", "Classify", "Features", "MobilityCore", "Trips", "Transit", "TestSupport"]),
        .testTarget(name: "TripsTests", dependencies: ["Trips", "MobilityCore", "TestSupport"]),
        .testTarget(
            name: "ReportsTests", dependencies: ["Reports", "Store", "HeatMaps", "MobilityCore", "TestSupport", "Trips"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "TransitTests",
            dependencies: ["Transit", "MobilityCore", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "HeatMapsTests", dependencies: ["HeatMaps", "Trips", "MobilityCore", "Reports", "CPNG", "TestSupport"]),
        .testTarget(name: "ComfortTests", dependencies: ["Comfort", "MobilityCore", "Trips"]),
        .testTarget(name: "PublicationTests", dependencies: ["Publication", "Trips", "HeatMaps", "Comfort", "MobilityCore"]),
        .testTarget(name: "SimulateTests", dependencies: ["Simulate", "MobilityCore", "TestSupport"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TestSupport", "Store", "PipelineRunner", "Features", "Classify", "Fusion", "Trips", "Transit", "Ingest", "MobilityCore",
                "Reports",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")
            ],
            exclude: ["Fixtures"]
        ),
        // The runs of PipelineRunner called as a library, over a real store and real files.
        .testTarget(
            name: "PipelineRunnerTests",
            dependencies: ["PipelineRunner", "Store", "Ingest", "Trips", "Comfort", "Features", "MobilityCore", "TestSupport"]),
        // Tests on the real recordings of ../shared/data (each skips with a message when its data is absent).
        .testTarget(
            name: "RealDataTests",
            dependencies: ["TestSupport", "Store", "PipelineRunner", "Features", "Classify", "Trips", "Ingest", "MobilityCore"],
            exclude: ["Fixtures"]
        )
    ],
    swiftLanguageModes: [.v6]
)

// The tests' own code is compiled unoptimised, also in the release build the tests run on (the
// code they test is optimised). Measured 2026-11-29 on 2 cores, clean release builds with the
// tests: 856 s with their code optimised (EndToEndTests alone about 200 s at the end, on one
// core) and 609 s without; the tests then ran 231 s and 259 s.
for target in package.targets where target.type == .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
}
