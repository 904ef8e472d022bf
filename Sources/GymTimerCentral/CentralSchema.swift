/// The central database's tables, created when missing by whichever collector connects first
/// (under an advisory lock, so two starting at once do not race), and its version, which a
/// later release moves forward and an older one refuses to write under.
///
/// workouts: every gym's records, one row per (gym, id); a gym's own collector's records
/// (no gym) under gym ''. The columns are `StoredWorkout`'s: completed_at a UTC instant,
/// local_day the station's day, exercises a JSON array, athlete a card's UID in hex;
/// stored_at when this database took the row (a record's station-to-centre latency).
///
/// Version 2 adds the chain's roster (`PostgresRoster`): athletes (a unique name, the short
/// name the stations show) and athlete_cards (a card's UID in hex, as workouts.athlete, to its
/// athlete; deleted with them). A version 1 database is brought to 2 in place, under the same
/// lock: its tables stay, the roster's are created empty.
///
/// Version 3 adds workouts.voided_score and voided_at: a result the coach voided keeps its
/// score there, `score` NULL, so that no best or leaderboard counts it (`PostgresGymDesk.void`);
/// and athletes.public_name, how the signed-out world names them (`PublicName`, NULL: initial).
enum CentralSchema {
    static let version = 3

    /// Each statement of version 3 (PostgreSQL takes one per query with parameters); every one
    /// is a no-op on a database that has it, so an older database gets only what is new.
    static let statements: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS gymtimer_schema (
            version integer PRIMARY KEY,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS workouts (
            gym text NOT NULL,
            id text NOT NULL,
            station text,
            kind text NOT NULL,
            sets integer NOT NULL,
            duration_ms bigint NOT NULL,
            calories integer NOT NULL,
            exercises jsonb NOT NULL DEFAULT '[]',
            preset text,
            score text,
            completed_at timestamptz NOT NULL,
            local_day date NOT NULL,
            clock_synchronised boolean,
            athlete text,
            division text,
            stored_at timestamptz NOT NULL DEFAULT clock_timestamp(),
            PRIMARY KEY (gym, id)
        )
        """,
        "CREATE INDEX IF NOT EXISTS workouts_completed_at ON workouts (completed_at)",
        "CREATE INDEX IF NOT EXISTS workouts_athlete ON workouts (athlete)",
        "INSERT INTO gymtimer_schema (version) VALUES (1) ON CONFLICT DO NOTHING",
        """
        CREATE TABLE IF NOT EXISTS athletes (
            id bigserial PRIMARY KEY,
            name text NOT NULL UNIQUE,
            short_name text NOT NULL,
            added_at timestamptz NOT NULL DEFAULT clock_timestamp()
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS athlete_cards (
            card text PRIMARY KEY,
            athlete_id bigint NOT NULL REFERENCES athletes(id) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX IF NOT EXISTS athlete_cards_athlete ON athlete_cards (athlete_id)",
        "INSERT INTO gymtimer_schema (version) VALUES (2) ON CONFLICT DO NOTHING",
        "ALTER TABLE workouts ADD COLUMN IF NOT EXISTS voided_score text",
        "ALTER TABLE workouts ADD COLUMN IF NOT EXISTS voided_at timestamptz",
        "ALTER TABLE athletes ADD COLUMN IF NOT EXISTS public_name text",
        "INSERT INTO gymtimer_schema (version) VALUES (3) ON CONFLICT DO NOTHING",
    ]

    /// The key of the advisory lock the schema is created under.
    static let lockKey = 35_035_001

    /// Creates what is missing in one transaction and checks the version.
    static func prepare(_ link: PostgresLink) throws(CentralStoreError) {
        try link.run("BEGIN", "begin the schema's transaction")
        try link.run("SELECT pg_advisory_xact_lock(\(lockKey))", "lock the schema")
        for statement in statements {
            try link.run(statement, "create the schema")
        }
        let result = try link.run("SELECT max(version) FROM gymtimer_schema", "read the schema version")
        try link.run("COMMIT", "commit the schema")
        let found = (try? result.rows.first?.decode(Int?.self)) ?? nil
        if let found, found > version {
            throw .newerSchema(database: link.url.description, version: found, known: version)
        }
    }
}
