// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Layers, dependencies pointing one way:
/// Core (pure state machines) ← HAL (device protocols, the system calls under them, errno's
/// text: swift-system's `Errno`) ← System (what talks to the operating system: processes, safe
/// files, stop signals, the fault log, the journal's storage) ← Drivers (written once over the HAL)
/// ← Runtime (the one event loop, running-state storage, systemd service; nothing else)
/// ← Setup (what both kiosks share: `KioskDataDirectory`, the history's conformance to Runtime's `PendingHistory`)
/// ← Kiosk (real devices from the config, self-test) / Simulator (simulated devices, scripted
///   and terminal runs) ← Benchmark (runs the simulator) ← gymtimer (CLI: parses, calls one of them).
/// The coach's console (Console, over Hummingbird/SwiftNIO) is its own executable,
/// gymtimer-console; gymtimer and it share CommandLine (stderr lines, exit codes, broker options).
/// A chain's central store (Central, PostgreSQL through libpq, loaded at run time) is another,
/// gymtimer-central, which `gymtimer collect/history --db postgresql://…` runs: the kiosk's
/// binary links neither.
/// Device backends (Hardware: libgpiod, ALSA…; Simulation: the twins) and History (SQLite) sit
/// beside Runtime: Runtime links none of them. History and the fleet use System, not Drivers.
/// System sits over HAL (not under it): StopSignals is a HAL `PollSource` and a child process
/// waits through HAL's `SystemCall.poll`, while HAL needs nothing of System.
/// The wall clock is one type, Core's `WallClock` (an epoch and the time since it, injected);
/// the machine's (`WallClock.system`, CLOCK_REALTIME) and its `Date` are System's.

/// swift-system's `Errno`: the one errno type, thrown or turned into text (HAL's `Errno+Text`).
let systemPackage: Target.Dependency = .product(name: "SystemPackage", package: "swift-system")

let package = Package(
    name: "GymTimer",
    platforms: [.macOS(.v15)],  // 15: Synchronization's Mutex (the console's shared state)
    products: [
        .executable(name: "gymtimer", targets: ["gymtimer"]),
        // The coach's web console, a program of its own that `gymtimer console` runs: the kiosk's
        // binary links no HTTP server (Hummingbird, SwiftNIO), which costs every kiosk process 8 MB.
        .executable(name: "gymtimer-console", targets: ["gymtimer-console"]),
        // A chain's central collector and history over PostgreSQL, run by `gymtimer collect/history
        // --db postgresql://…`: the kiosk's binary holds no PostgreSQL client (libpq is loaded by gymtimer-central only).
        .executable(name: "gymtimer-central", targets: ["gymtimer-central"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),  // 1.6: @ParentCommand
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        // The coach's web console's HTTP server (GymTimerConsole): SwiftNIO underneath.
        // Without its ConfigurationSupport trait (swift-configuration, which the console does not
        // use: 21k lines compiled for nothing, on the host and again for arm64).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        // What Hummingbird's API is written in (named here because the console imports them).
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGPIOD",
            path: "Modules/CGPIOD",
            pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]
        ),
        .systemLibrary(
            name: "CALSA",
            path: "Modules/CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        .target(name: "GymTimerCore"),
        // ppoll(2), which Swift's Glibc module does not import: HAL's SystemCall.poll is its one user.
        .target(name: "CSystemShim"),
        .target(name: "GymTimerHAL", dependencies: ["CSystemShim", systemPackage]),
        // The system layer: processes, safe files, stop signals, the fault log, the journal's storage,
        // the machine's wall clock (WallClock.system).
        .target(name: "GymTimerSystem", dependencies: ["GymTimerCore", "GymTimerHAL", systemPackage]),
        .target(name: "GymTimerDrivers", dependencies: ["GymTimerCore", "GymTimerHAL", "GymTimerSystem", systemPackage]),
        .target(
            name: "GymTimerConfig",
            dependencies: ["GymTimerCore", "GymTimerHAL", "GymTimerFleet", systemPackage, .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .target(
            name: "GymTimerHistory",
            dependencies: [
                "GymTimerCore", "GymTimerHAL", "GymTimerSystem", systemPackage, .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // libmosquitto's header only: gymtimer loads the library when a client is made
        // (CMosquittoShim), so a kiosk without a [fleet] never maps it or OpenSSL.
        .systemLibrary(name: "CMosquitto", path: "Modules/CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(name: "CMosquittoShim", dependencies: ["CMosquitto"]),
        // libnfc, loaded when a card reader is opened (no header needed to build: CNFCShim).
        .target(name: "CNFCShim"),
        // libpq, loaded when a chain's central store first connects (no header needed to build).
        .target(name: "CPQShim"),
        // The fleet's protocol (fleet.md): topics, commands, Home Assistant discovery, what the
        // console and `gymtimer fleet` show of it (FleetCell, FleetAnswers), and the console's
        // asks to the collector with their answers (GymDeskAsk, GymDeskAnswer, GymRoster, GymScores,
        // GymAthleteSummary). Every message the fleet writes is an Encodable type written by its own
        // FleetJSONEncoder (the wire's key order and three-decimal seconds); pure Swift +
        // Foundation; the MQTT client that carries it is GymTimerMQTT.
        .target(name: "GymTimerFleet", dependencies: ["GymTimerCore"]),
        .target(name: "GymTimerMQTT", dependencies: ["GymTimerHAL", "CMosquittoShim", systemPackage]),
        // What every end of the fleet shares over MQTT: one connection with its back-off
        // (FleetConnection), a record's wire form (FleetWorkoutMessage), the link's errors.
        .target(
            name: "GymTimerFleetLink",
            dependencies: ["GymTimerFleet", "GymTimerMQTT", "GymTimerHistory", "GymTimerCore", "GymTimerHAL", "GymTimerSystem", systemPackage]
        ),
        // The station's side of the fleet, which a kiosk's loop hosts (FleetStation, KioskFleet),
        // with its durable outbox: the only fleet room that may see Runtime.
        .target(
            name: "GymTimerStationLink",
            dependencies: [
                "GymTimerFleetLink", "GymTimerUpgrade", "GymTimerFleet", "GymTimerMQTT", "GymTimerHistory", "GymTimerConfig",
                "GymTimerCore", "GymTimerHAL", "GymTimerSystem", "GymTimerRuntime", systemPackage,
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The collector and its desk (which alone opens the gym's database for the coach's
        // console: CollectorDesk), for one gym's SQLite and, through GymTimerCentral, a chain's
        // PostgreSQL. Links no Runtime: `gymtimer-central` is built from it.
        .target(
            name: "GymTimerCollector",
            dependencies: [
                "GymTimerFleetLink", "GymTimerFleet", "GymTimerMQTT", "GymTimerHistory", "GymTimerConfig", "GymTimerCore",
                "GymTimerHAL", "GymTimerSystem", systemPackage,
            ]
        ),
        // The root upgrade agent (`gymtimer upgrade run`) and the station's upgrade request.
        .target(name: "GymTimerUpgrade", dependencies: ["GymTimerFleet", "GymTimerCore", "GymTimerHAL", "GymTimerSystem", systemPackage]),
        // The coach's command line (`gymtimer fleet …`): a station named, the fleet's floor and health read.
        .target(
            name: "GymTimerFleetCommands",
            dependencies: ["GymTimerFleetLink", "GymTimerFleet", "GymTimerMQTT", "GymTimerConfig", "GymTimerCore", "GymTimerSystem"]
        ),
        // The coach's web console (`gymtimer console`): an HTTP server (Hummingbird) on one side,
        // the fleet's MQTT client on a thread of its own on the other; the page, the PIN lock.
        // It opens no database: the gym's roster, athletes' pages and today's scores come from
        // the collector over the broker (GymDeskAsk), so it links neither History nor GRDB
        // (Tests/ci/links-test.sh).
        .target(
            name: "GymTimerConsole",
            dependencies: [
                "GymTimerFleet", "GymTimerMQTT", "GymTimerConfig", "GymTimerCore", "GymTimerSystem",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The page's files, compiled into the binary (PackageResources): nothing to install.
            resources: [
                .embedInCode("Page/console.html"), .embedInCode("Page/coach-controls.html"),
                .embedInCode("Page/console.css"), .embedInCode("Page/console.js"), .embedInCode("Page/health.js"),
            ]
        ),
        // A chain's central store: every gym's records in PostgreSQL (PostgresRecordStore, a
        // CollectorStore behind a blocking API with bounded waits) and read back for `history`.
        .target(
            name: "GymTimerCentral",
            dependencies: [
                "GymTimerFleetLink", "GymTimerCollector", "GymTimerHistory", "GymTimerCore", "GymTimerSystem", "GymTimerHAL", "CPQShim", systemPackage,
            ]
        ),
        // The simulated twins, the in-memory MQTT broker among them (behind GymTimerMQTT's MQTTTransport).
        .target(name: "GymTimerSimulation", dependencies: ["GymTimerCore", "GymTimerHAL", "GymTimerDrivers", "GymTimerMQTT"]),
        // The one seam over libgpiod v1 (Debian 12) or v2 (Debian 13), chosen from its header.
        .target(name: "CGPIODShim", dependencies: ["CGPIOD"]),
        .target(name: "GymTimerHardware", dependencies: ["GymTimerCore", "GymTimerHAL", "GymTimerDrivers", "CGPIODShim", "CALSA", "CNFCShim"]),
        // The event loop and the contracts it runs on (its devices, timing, sleep clock, where it
        // saves its running state): under 600 lines (RuntimeSizeTests), linking no backend or store.
        .target(name: "GymTimerRuntime", dependencies: ["GymTimerCore", "GymTimerHAL", "GymTimerSystem", "GymTimerDrivers", systemPackage]),
        // A kiosk's data directory: its lock, the running-state journal's store (KioskStore,
        // StoredKiosk, ClockTrust) and the history, opened the one way `run` and the simulators do.
        .target(name: "GymTimerSetup", dependencies: ["GymTimerCore", "GymTimerSystem", "GymTimerDrivers", "GymTimerHistory", "GymTimerRuntime", systemPackage]),
        .target(
            name: "GymTimerSimulator",
            dependencies: [
                "GymTimerCore", "GymTimerHAL", "GymTimerDrivers", "GymTimerConfig", "GymTimerSimulation", "GymTimerHistory",
                "GymTimerRuntime", "GymTimerSetup", "GymTimerFleetLink", "GymTimerStationLink", "GymTimerCollector", "GymTimerFleet", "GymTimerMQTT", "GymTimerSystem",
                systemPackage,
            ]
        ),
        .target(
            name: "GymTimerKiosk",
            dependencies: [
                "GymTimerCore", "GymTimerHAL", "GymTimerDrivers", "GymTimerConfig", "GymTimerHardware", "GymTimerHistory",
                "GymTimerRuntime", "GymTimerSetup", "GymTimerStationLink", "GymTimerSystem",
            ]
        ),
        // What `gymtimer bench` and the tests drive the fleet with, never part of a kiosk's or the
        // console's work: a real Mosquitto launched on a free port (LocalBroker), stations and a
        // collector pumped by hand (FleetPump), a loopback HTTP client for the console (BenchHTTP), a
    // real PostgreSQL in a cluster of its own (LocalPostgres: processes only, no client linked).
        .target(name: "GymTimerBenchSupport", dependencies: ["GymTimerStationLink", "GymTimerCollector", "GymTimerSystem"]),
        .target(
            name: "GymTimerBenchmark",
            dependencies: [
                "GymTimerBenchSupport", "GymTimerCore", "GymTimerHAL", "GymTimerDrivers", "GymTimerSimulation", "GymTimerRuntime", "GymTimerSimulator",
                "GymTimerFleet", "GymTimerFleetLink", "GymTimerCollector", "GymTimerStationLink", "GymTimerUpgrade", "GymTimerFleetCommands", "GymTimerMQTT", "GymTimerConfig", "GymTimerHistory", "GymTimerHardware",
                "GymTimerSystem", systemPackage,
            ]
        ),
        // What both executables' command lines share: one-line errors with their exit codes,
        // stdout/stderr writing, the broker's options.
        .target(
            name: "GymTimerCommandLine",
            dependencies: ["GymTimerConfig", "GymTimerMQTT", "GymTimerSystem", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "gymtimer",
            dependencies: [
                "GymTimerCore", "GymTimerKiosk", "GymTimerSimulator", "GymTimerBenchmark", "GymTimerRuntime", "GymTimerHardware", "GymTimerDrivers",
                "GymTimerSimulation", "GymTimerConfig", "GymTimerHistory", "GymTimerFleet", "GymTimerFleetLink", "GymTimerCollector", "GymTimerStationLink", "GymTimerUpgrade", "GymTimerFleetCommands", "GymTimerMQTT",
                "GymTimerCommandLine", "GymTimerHAL", "GymTimerSystem", "GymTimerRosterCommands", "GymTimerSetup", systemPackage,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Linked by LLVM's lld (shipped with the Swift toolchain) with packed relative
            // relocations (DT_RELR, glibc 2.36+: Debian 12 and 13): the position-independent
            // binary's 2 MB of relocations shrink to 17 KB, which the loader no longer pages in
            // at every start (peak RSS 16.5 → 15 MB in `bench`).
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux]))
            ]
        ),
        // The roster's commands (`athletes` list, add, card, rename, forget), one set for one gym's
        // SQLite (`gymtimer athletes`) and the chain's PostgreSQL (`gymtimer-central athletes`).
        .target(
            name: "GymTimerRosterCommands",
            dependencies: ["GymTimerHistory", "GymTimerCommandLine", "GymTimerCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `gymtimer console`'s program (Console: HTTP server, MQTT thread), linked as gymtimer is.
        .executableTarget(
            name: "gymtimer-console",
            dependencies: [
                "GymTimerConsole", "GymTimerCommandLine", "GymTimerCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux]))
            ]
        ),
        // `gymtimer collect/history --db postgresql://…`'s program (Central), linked as gymtimer is.
        .executableTarget(
            name: "gymtimer-central",
            dependencies: [
                "GymTimerCentral", "GymTimerFleetLink", "GymTimerCollector", "GymTimerFleet", "GymTimerHistory", "GymTimerCommandLine", "GymTimerSystem",
                "GymTimerRosterCommands", "GymTimerCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux]))
            ]
        ),
        // libFuzzer targets (scripts/fuzz.sh builds them with -sanitize=fuzzer); built normally
        // they replay the files named on the command line.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzScript", dependencies: ["FuzzSupport", "GymTimerConfig", "GymTimerSimulation", "GymTimerSimulator"]),
        .executableTarget(name: "FuzzConfig", dependencies: ["FuzzSupport", "GymTimerConfig"]),
        .executableTarget(name: "FuzzWAV", dependencies: ["FuzzSupport", "GymTimerDrivers"]),
        .executableTarget(name: "FuzzCommand", dependencies: ["FuzzSupport", "GymTimerCore", "GymTimerFleet"]),
        // A whole station (kiosk loop, FleetStation) in virtual time over the in-memory broker.
        .executableTarget(
            name: "FuzzStation",
            dependencies: [
                "FuzzSupport", "GymTimerConfig", "GymTimerCore", "GymTimerFleet", "GymTimerStationLink", "GymTimerMQTT",
                "GymTimerSimulation", "GymTimerSimulator",
            ]
        ),
        .executableTarget(name: "FuzzRecord", dependencies: ["FuzzSupport", "GymTimerFleetLink", "GymTimerHistory"]),
        // What `fleet status` prints of any retained status and state.
        .executableTarget(name: "FuzzConsole", dependencies: ["FuzzSupport", "GymTimerFleet", "GymTimerFleetCommands"]),
        // Helpers more than one test target uses (never part of the product).
        .target(name: "GymTimerTestSupport", dependencies: ["GymTimerCore"], path: "Tests/GymTimerTestSupport"),
        .testTarget(name: "GymTimerCoreTests", dependencies: ["GymTimerCore"]),
        .testTarget(name: "GymTimerSystemTests", dependencies: ["GymTimerSystem"]),
        .testTarget(name: "GymTimerDriversTests", dependencies: ["GymTimerDrivers", "GymTimerSystem", "GymTimerSimulation", "GymTimerTestSupport"]),
        .testTarget(name: "GymTimerConfigTests", dependencies: ["GymTimerConfig"]),
        .testTarget(
            name: "GymTimerSimulationTests",
            dependencies: [
                "GymTimerSimulation", "GymTimerRuntime", "GymTimerSetup", "GymTimerSimulator", "GymTimerKiosk", "GymTimerBenchmark",
                "GymTimerSystem", "GymTimerTestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "GymTimerKioskTests",
            dependencies: ["GymTimerKiosk", "GymTimerHardware", "GymTimerConfig", "GymTimerSimulation", "GymTimerRuntime", "GymTimerSetup", "GymTimerSystem"]
        ),
        .testTarget(name: "GymTimerHardwareTests", dependencies: ["GymTimerHardware", "GymTimerDrivers", "GymTimerSystem", "GymTimerSimulation", "GymTimerTestSupport"]),
        .testTarget(name: "GymTimerHistoryTests", dependencies: ["GymTimerHistory", "GymTimerSystem", "GymTimerTestSupport"]),
        .testTarget(
            name: "GymTimerFleetTests",
            dependencies: [
                "GymTimerFleet", "GymTimerFleetLink", "GymTimerCollector", "GymTimerStationLink", "GymTimerUpgrade", "GymTimerFleetCommands", "GymTimerMQTT", "GymTimerConfig", "GymTimerHistory", "GymTimerCore", "GymTimerSystem",
                "GymTimerDrivers", "GymTimerRuntime", "GymTimerSimulator", "GymTimerSimulation", "GymTimerTestSupport", "GymTimerBenchSupport", "GymTimerSetup",
            ]
        ),
        .testTarget(
            name: "GymTimerConsoleTests",
            dependencies: [
                "GymTimerConsole", "GymTimerFleet", "GymTimerFleetLink", "GymTimerCollector", "GymTimerStationLink", "GymTimerUpgrade", "GymTimerFleetCommands", "GymTimerHistory", "GymTimerCore", "GymTimerSystem", "GymTimerMQTT",
                "GymTimerBenchSupport",
            ]
        ),
        // Against a real PostgreSQL server the tests start (LocalPostgres), and gymtimer-central's process.
        .testTarget(
            name: "GymTimerCentralTests",
            dependencies: [
                "GymTimerCentral", "GymTimerFleetLink", "GymTimerCollector", "GymTimerStationLink", "GymTimerUpgrade", "GymTimerFleetCommands", "GymTimerFleet", "GymTimerHistory", "GymTimerCore", "GymTimerSystem",
                "GymTimerMQTT", "GymTimerBenchSupport", "GymTimerTestSupport",
            ]
        ),
        .testTarget(
            name: "FuzzTests",
            dependencies: [
                "FuzzScript", "FuzzConfig", "FuzzWAV", "FuzzCommand", "FuzzStation", "FuzzRecord", "FuzzConsole", "GymTimerConfig",
                "GymTimerDrivers", "GymTimerFleet", "GymTimerFleetLink", "GymTimerCollector", "GymTimerStationLink", "GymTimerUpgrade", "GymTimerFleetCommands", "GymTimerSimulation",
            ],
            exclude: ["Corpus", "Unfixed"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The tests and their helpers are compiled without optimisation even in the release build the
// test command makes (-Onone after SwiftPM's -O: the last one counts): the code under test is the
// shipped modules', optimised as shipped; optimising the tests' own code only cost the build
// minutes on CI's two cores, for the host and again for arm64.
let unoptimised: Set<String> = ["GymTimerTestSupport", "FuzzSupport"]
for target in package.targets where target.type == .test || unoptimised.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
}

// The arm64 stage of the test command (scripts/test-arm64.sh) runs, under emulation, the unit
// tests of what can differ on arm64 only. Its test build (GYMTIMER_ARM64_UNIT_TESTS=1) leaves
// out what none of those tests link: the console's HTTP server (SwiftNIO, Hummingbird) and its
// tests, the central store and its tests, the fuzz targets, the pure core's tests.
// The programs the package ships are built before it, with everything.
if ProcessInfo.processInfo.environment["GYMTIMER_ARM64_UNIT_TESTS"] == "1" {
    let unused: Set<String> = [
        "GymTimerConsole", "gymtimer-console", "GymTimerConsoleTests", "GymTimerCentral", "gymtimer-central", "GymTimerCentralTests",
        "GymTimerCoreTests", "FuzzTests", "FuzzSupport",
        "FuzzScript", "FuzzConfig", "FuzzWAV", "FuzzCommand", "FuzzStation", "FuzzRecord", "FuzzConsole",
    ]
    package.targets.removeAll { unused.contains($0.name) }
    package.products.removeAll { unused.contains($0.name) }
}
