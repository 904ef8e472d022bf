/// Where finished workouts go. The SQLite history and the in-memory one both sit behind it.
///
/// It lives in the core, not the runtime, so the SQLite store (GymTimerHistory) can conform to
/// it without depending on the runtime.
public protocol WorkoutHistory: AnyObject {
    /// Keeps `workout`; never throws and returns quickly, whatever the storage does.
    func record(_ workout: WorkoutRecord)
}
