/// How recordings are cut into windows. Each default is stated here once.
public struct WindowParameters: Codable, Hashable, Sendable {
    /// Window length, seconds. Default 5 s: two or more gait cycles and long enough for road
    /// vibration statistics, the usual choice in transport-mode detection (the TMD paper uses 5 s).
    public var lengthSeconds: Double = 5
    /// Fraction of a window shared with the next one, 0 ≤ overlap < 1. Default 0.5.
    public var overlap: Double = 0.5
    /// Rate every IMU stream is resampled to, Hz. Default 50 Hz: gait at ~2 Hz and its
    /// harmonics and road vibration up to the 25 Hz Nyquist frequency.
    public var rateHz: Double = 50
    /// Longest gap between two samples that is interpolated across, seconds. Default 2 s:
    /// TMD's event logs deliver the accelerometer at 2–12 Hz with pauses over a second.
    /// A window with an accelerometer gap longer than this has no IMU features.
    public var maxGapSeconds: Double = 2
    /// GPS features use the fixes within this span centred on the window (or the window itself
    /// when longer), seconds. Default 30 s: at 1 Hz a 5 s window holds too few fixes for a
    /// stable speed percentile.
    public var gpsContextSeconds: Double = 30
    /// Lowest native rate of a stream whose frequency features (band shares, dominant
    /// frequency, entropy, autocorrelation, mean-crossing rate) are computed, Hz. Default 20 Hz:
    /// a Nyquist frequency of 10 Hz keeps gait at ~2 Hz and its harmonics; below it the
    /// resampled spectrum is interpolation, not signal (TMD's 2–12 Hz event logs), and the
    /// features are missing (NaN) instead of misleading.
    public var minimumSpectralRateHz: Double = 20

    /// Lowest native acceleration rate the IMU features are computed at, Hz: 1 Hz, five samples
    /// in a 5 s window, the fewest a spread means anything over. TMD's event logs dip below
    /// 2 Hz in stretches: at 2 Hz, 679 of its 21,568 windows would go; at 1 Hz, 7. A stretch of
    /// acceleration measured below it is not classified from the IMU: its windows are decided
    /// by GPS when the device has fixes there, else there are none, and the file's note says
    /// "not classified: rate too low".
    public static let minimumIMURateHz = 1.0

    public init(
        lengthSeconds: Double = 5, overlap: Double = 0.5, rateHz: Double = 50,
        maxGapSeconds: Double = 2, gpsContextSeconds: Double = 30, minimumSpectralRateHz: Double = 20
    ) {
        self.lengthSeconds = lengthSeconds
        self.overlap = overlap
        self.rateHz = rateHz
        self.maxGapSeconds = maxGapSeconds
        self.gpsContextSeconds = gpsContextSeconds
        self.minimumSpectralRateHz = minimumSpectralRateHz
    }

    /// Samples per window at `rateHz`.
    public var samplesPerWindow: Int { max(1, Int((lengthSeconds * rateHz).rounded())) }
    /// Seconds from one window's start to the next one's.
    public var hopSeconds: Double { lengthSeconds * (1 - overlap) }

    /// Why these parameters cannot be used, or nil.
    public var problem: String? {
        if !(lengthSeconds > 0) { return "window length must be positive (got \(lengthSeconds) s)" }
        if !(overlap >= 0 && overlap < 1) { return "window overlap must be in [0, 1) (got \(overlap))" }
        if !(rateHz > 0) { return "resampling rate must be positive (got \(rateHz) Hz)" }
        if samplesPerWindow < 8 {
            return "a window needs at least 8 samples (\(lengthSeconds) s at \(rateHz) Hz gives \(samplesPerWindow))"
        }
        if !(maxGapSeconds > 0) { return "maximum gap must be positive (got \(maxGapSeconds) s)" }
        if !(minimumSpectralRateHz >= 0) { return "minimum spectral rate must be non-negative (got \(minimumSpectralRateHz) Hz)" }
        if !(gpsContextSeconds >= 0) { return "GPS context must be non-negative (got \(gpsContextSeconds) s)" }
        return nil
    }
}
