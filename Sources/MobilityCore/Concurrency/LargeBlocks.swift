import CMalloc

/// How the process hands freed memory back to the system.
public enum LargeBlocks {
    /// Blocks of `thresholdBytes` (4 MiB) or more are mapped on their own, so freeing one
    /// returns it to the system. glibc otherwise raises that threshold to the largest block
    /// freed so far (up to 32 MiB), after which such blocks come from the heap and stay
    /// resident once freed: a device's 1.6 M fixes peaked at 165 MB of RSS for a heap peak of
    /// 96 MB, and at 147 MB with the threshold fixed (same time, 2 runs each; 1 MiB gave the
    /// same, 16 MiB 163 MB). Smaller blocks are untouched: a piece of GPS windows' feature rows
    /// (8 MB) is mapped afresh each time, about 2,000 page faults, which did not show in the
    /// run's time. Called once, first thing in `main`.
    public static func returnToTheSystem(thresholdBytes: Int32 = 4 << 20) {
        _ = mallopt(M_MMAP_THRESHOLD, thresholdBytes)
    }
}
