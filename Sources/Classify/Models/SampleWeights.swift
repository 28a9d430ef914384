/// Training weights that balance groups of windows, so the weights average 1.
///
/// Why the trainer balances devices as well as modes: in TMD one user holds 13,580 of 21,334
/// windows and all of the bus and train ones. Balanced by mode alone, that user's phone
/// defines every mode, and a model learns the other users' hand-held still phones as
/// `train`. With one device, every scheme here is plain class balancing.
public enum SampleWeights {
    /// Every group weighs the same in total: a window of group g weighs N / (G · N_g) for N
    /// windows in G groups.
    public static func balanced<Group: Hashable>(groups: [Group]) -> [Double] {
        var counts: [Group: Int] = [:]
        for group in groups { counts[group, default: 0] += 1 }
        let scale = Double(groups.count) / Double(max(1, counts.count))
        return groups.map { scale / Double(counts[$0]!) }
    }

    /// Every class weighs the same in total, and within a class every group that has it: a
    /// window of class c and group g weighs N / (K · G_c · N_cg) for K classes, G_c groups with
    /// class c, and N_cg windows of both.
    public static func balanced<Class: Hashable, Group: Hashable>(classes: [Class], within groups: [Group]) -> [Double] {
        var counts: [Pair<Class, Group>: Int] = [:], groupsPerClass: [Class: Int] = [:]
        for (item, group) in zip(classes, groups) {
            if counts[Pair(item: item, group: group)] == nil { groupsPerClass[item, default: 0] += 1 }
            counts[Pair(item: item, group: group), default: 0] += 1
        }
        let scale = Double(classes.count) / Double(max(1, groupsPerClass.count))
        return zip(classes, groups).map { item, group in
            scale / (Double(groupsPerClass[item]!) * Double(counts[Pair(item: item, group: group)]!))
        }
    }
}

/// A class and a group, as one dictionary key.
private struct Pair<Class: Hashable, Group: Hashable>: Hashable {
    var item: Class
    var group: Group
}
