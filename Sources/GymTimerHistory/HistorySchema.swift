import GRDB

/// The database's schema, one migration per version, from the first file on.
///
/// A migration once shipped never changes: a later version adds `v2`, and every kiosk's file
/// moves forward on its next start.
enum HistorySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (version, sql) in migrations {
            migrator.registerMigration(version) { db in try db.execute(sql: sql) }
        }
        return migrator
    }

    /// Every version's SQL, in the order a file takes them.
    static let migrations: [(version: String, sql: String)] = [
        ("v1", v1), ("v2", v2), ("v3", v3), ("v4", v4), ("v5", v5), ("v6", v6), ("v7", v7), ("v8", v8), ("v9", v9), ("v10", v10),
    ]

    /// completed_at: UTC wall-clock time, GRDB's text form `YYYY-MM-DD HH:MM:SS.SSS`.
    /// local_day: the kiosk's local day at completion, `YYYY-MM-DD`; streaks count these.
    /// exercises: a JSON array of names.
    static let v1 = """
        CREATE TABLE workouts (
            id TEXT PRIMARY KEY NOT NULL,
            kind TEXT NOT NULL,
            sets INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL,
            calories INTEGER NOT NULL,
            exercises TEXT NOT NULL DEFAULT '[]',
            preset TEXT,
            completed_at TEXT NOT NULL,
            local_day TEXT NOT NULL
        );
        CREATE INDEX workouts_completed_at ON workouts(completed_at);
        CREATE INDEX workouts_local_day ON workouts(local_day);
        CREATE TABLE achievements (
            name TEXT PRIMARY KEY NOT NULL,
            unlocked_at TEXT NOT NULL
        );
        """

    /// score: a program's result as `gymtimer history` shows it (`8 rounds`,
    /// `12:34, 3 rounds`, `capped, 5 rounds`); NULL for the other kinds.
    static let v2 = """
        ALTER TABLE workouts ADD COLUMN score TEXT;
        """

    /// station: the fleet station a record came from (fleet.md); NULL on a kiosk's own
    /// history, set in a collector's database (`gymtimer collect`).
    static let v3 = """
        ALTER TABLE workouts ADD COLUMN station TEXT;
        """

    /// clock_synchronised: whether the kiosk's wall clock was synchronised (adjtimex)
    /// when completed_at was taken: 1 yes, 0 no (a Pi without a clock battery before NTP:
    /// the date may be wrong), NULL unknown (records from before this column).
    static let v4 = """
        ALTER TABLE workouts ADD COLUMN clock_synchronised INTEGER;
        """

    /// athlete: the card UID (`CardID.hex`, upper-case hex) of the athlete whose workout
    /// it was; NULL for a guest's and for records from before this column. Indexed: a
    /// collector's database answers one athlete's history out of the whole gym's.
    static let v5 = """
        ALTER TABLE workouts ADD COLUMN athlete TEXT;
        CREATE INDEX workouts_athlete ON workouts(athlete);
        """

    /// The gym's roster (a collector's database; `gymtimer athletes`): who a card is.
    /// name: 1 to 64 printable characters, unique whatever the (ASCII) case, as the CLI
    /// finds an athlete by it; short_name: 1 to 4 characters a 7-segment digit draws
    /// (`RosterNames`); created_at as completed_at. cards.card: `CardID.hex`, the value
    /// `workouts.athlete` holds, so an athlete's records are those of their cards and a
    /// merge only moves cards. Foreign keys are on (GRDB), and a forget deletes all three.
    static let v6 = """
        CREATE TABLE athletes (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            short_name TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE cards (
            card TEXT PRIMARY KEY NOT NULL,
            athlete INTEGER NOT NULL REFERENCES athletes(id) ON DELETE CASCADE
        );
        CREATE INDEX cards_athlete ON cards(athlete);
        """

    /// division: how a program's result was done, 'rx' (as written) or 'scaled'; NULL
    /// when not said (the other kinds, records from before this column), which counts as
    /// Rx. A coach may amend it afterwards (`HistoryStore.setDivision`).
    static let v7 = """
        ALTER TABLE workouts ADD COLUMN division TEXT;
        """

    /// What a forget still owes the stations (`gymtimer athletes forget`, `ForgetRequest`):
    /// one row per forgotten card,
    /// holding its UID only until every station known to the collector has answered the
    /// `forget` command (forget_answers: who has), or `ForgetRequest.patience` has passed;
    /// then the collector deletes the row and VACUUMs. A card forgotten again while its
    /// request waits replaces it (its answers start over).
    static let v8 = """
        CREATE TABLE forget_requests (
            id INTEGER PRIMARY KEY,
            card TEXT NOT NULL UNIQUE,
            requested_at TEXT NOT NULL
        );
        CREATE TABLE forget_answers (
            request INTEGER NOT NULL REFERENCES forget_requests(id) ON DELETE CASCADE,
            station TEXT NOT NULL,
            PRIMARY KEY (request, station)
        );
        """

    /// voided_score, voided_at: a program result the coach voided (`HistoryStore.void`): its
    /// score moved here and `score` left NULL, so that no best, leaderboard or athlete's page
    /// counts it while the workout itself (its time, its day in a streak) stays, and `history`
    /// still shows what was voided and when. NULL for every result that counts.
    static let v9 = """
        ALTER TABLE workouts ADD COLUMN voided_score TEXT;
        ALTER TABLE workouts ADD COLUMN voided_at TEXT;
        """

    /// public_name: how the signed-out world names the athlete (`PublicName`: 'initial',
    /// 'short' or 'guest'), as the owner sets it; NULL: not said, the initial.
    static let v10 = """
        ALTER TABLE athletes ADD COLUMN public_name TEXT;
        """
}
