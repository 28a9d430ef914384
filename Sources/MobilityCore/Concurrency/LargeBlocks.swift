import CMalloc

/// How the process hands freed memory back to the system.
///
/// glibc serves a block below its mapping threshold from the heap, where it stays resident
/// once freed, and raises that threshold to the largest block freed so far (up to 32 MiB). So
/// one stage's freed arrays stayed resident under the next: 100,000 continuous fixes peaked at
/// 82 MB of RSS, 74 MB with the heap handed back between stages (1.6 M: 165–180 and 162–173 MB).
///
/// Fixing the threshold (4 MiB: every larger block mapped on its own and unmapped when freed)
/// would save more, 147 MB at 1.6 M fixes, but maps each block afresh: set for the whole run,
/// ingest of 26 simulated device-days took 10 % longer; set for the trip stage, the stage took
/// 12-35 % longer. So it is not set.
public enum LargeBlocks {
    /// Gives the heap's free pages back to the system (`malloc_trim`): where a stage or a batch
    /// of devices has let its work go, so the next does not start on top of it.
    public static func returnFreed() {
        _ = malloc_trim(0)
    }
}
