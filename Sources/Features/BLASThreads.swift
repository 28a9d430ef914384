import CBLAS

/// The feature stage runs its window batches on every core itself; OpenBLAS starting its own
/// threads inside each call would then oversubscribe the cores (measured: a device-day's
/// features took 2.5 s with OpenBLAS threading, 1.4 s with one BLAS thread per batch on
/// 2 cores). The matrices are small (a few hundred rows), so one thread per call loses nothing.
enum BLASThreads {
    private static let once: Void = { openblas_set_num_threads(1) }()

    static func useOnePerCaller() { _ = once }
}
