#if canImport(Glibc)
    import Glibc
#endif
import CBLAS

/// The pipeline runs its work on every core itself; OpenBLAS starting its own threads inside
/// each call would then oversubscribe the cores (measured: a device-day's features took 2.5 s
/// with OpenBLAS threading, 1.4 s with one BLAS thread per batch on 2 cores). The matrices are
/// small (a few hundred rows), so one thread per call loses nothing.
public enum BLASThreads {
    private static let once: Void = {
        openblas_set_num_threads(1)
        stopIdleWorkers()
    }()

    /// One BLAS thread per caller, and OpenBLAS's own worker threads stopped. Call it first
    /// thing in a process (`pipeline` does); repeated calls cost nothing.
    public static func useOnePerCaller() { _ = once }

    /// Debian's pthread OpenBLAS starts a worker per core when it is loaded, and each spins on
    /// `sched_yield` for about 2^28 cycles before sleeping: about 0.1 s of a core taken from
    /// every process, BLAS or not (8 % of the samples of a 60 MB GPX `ingest` under `perf`).
    /// `blas_thread_shutdown_` (exported by OpenBLAS, not in its header) joins them; with one
    /// thread set above, no later call starts them again. Looked up at run time so that a BLAS
    /// built without the thread server (serial or OpenMP) is simply left as it is.
    private static func stopIdleWorkers() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "blas_thread_shutdown_") else { return }
        typealias Shutdown = @convention(c) () -> Int32
        _ = unsafeBitCast(symbol, to: Shutdown.self)()
    }
}
