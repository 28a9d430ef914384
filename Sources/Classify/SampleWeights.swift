/// Training weights that give every group the same total weight: a window of group g weighs
/// N / (G · N_g) for N windows in G groups, so the weights average 1.
///
/// The trainer groups windows by (device, mode). Balancing modes alone would let the one
/// device that recorded a mode define it, and let the device with the most recordings define
/// every other mode: in TMD one user holds 13,580 of 21,334 windows and all of the bus and
/// train ones, and a model balanced by mode learns that user's quiet hand-held phone as
/// `train`. Balanced by device and mode, a mode that several phones recorded counts for
/// more than one that a single phone did. With one device this is plain class balancing.
public enum SampleWeights {
    public static func balanced<Group: Hashable>(groups: [Group]) -> [Double] {
        var counts: [Group: Int] = [:]
        for group in groups { counts[group, default: 0] += 1 }
        let scale = Double(groups.count) / Double(max(1, counts.count))
        return groups.map { scale / Double(counts[$0]!) }
    }
}
