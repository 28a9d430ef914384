import CMalloc

/// How the process hands freed memory back to the system.
///
/// glibc serves a block below its mapping threshold from the heap, where it stays resident
/// once freed, and raises that threshold to the largest block freed so far (up to 32 MiB). So
/// the trip stage's arrays of a device (a piece of windows' rows, 8 MB; a track's flags and
/// windows, several MB each) stayed resident after use: a device's 1.6 M continuous fixes
/// peaked at 180 MB of RSS for a heap peak of 96 MB.
public enum LargeBlocks {
    /// From now on, blocks of `bytes` (4 MiB) or more are mapped on their own and go back to
    /// the system when freed. The trip stage sets it (1.6 M continuous fixes: 147 MB, same
    /// time; 16 MiB gave 163 MB); ingest does not, as it frees and takes such blocks all the
    /// time (set for the whole run, ingest of 26 simulated device-days took 10 % longer).
    public static func mapOnTheirOwn(fromBytes bytes: Int32 = 4 << 20) {
        _ = mallopt(M_MMAP_THRESHOLD, bytes)
    }

    /// Gives the heap's free pages back to the system (`malloc_trim`): where a stage or a batch
    /// of devices has let its work go, so the next does not start on top of it.
    public static func returnFreed() {
        _ = malloc_trim(0)
    }
}
