extension Lyricify {
    /// Lines (or other targets) grouped by start time, each group handed out in file order: how
    /// timed rows of a translation are paired with the lines they belong to.
    ///
    /// A take costs a binary search and a look at the groups within the tolerance (at most
    /// 2 × tolerance + 1 of them, starts being distinct integers), so joining stays fast on files
    /// with thousands of lines at one time.
    struct StartQueue {
        /// The distinct starts, ascending.
        private var starts: [Int] = []
        /// The targets of each start, in file order.
        private var members: [[Int]] = []
        /// How many of each group have been handed out.
        private var taken: [Int] = []

        /// Groups targets `0..<starts.count` by their start.
        init(_ targetStarts: [Int]) {
            let order = targetStarts.indices.sorted { (targetStarts[$0], $0) < (targetStarts[$1], $1) }
            for index in order {
                if starts.last != targetStarts[index] {
                    starts.append(targetStarts[index])
                    members.append([])
                }
                members[members.count - 1].append(index)
            }
            taken = Array(repeating: 0, count: starts.count)
        }

        /// The next target starting exactly at `time`, otherwise at the nearest start within
        /// `tolerance` milliseconds (the earlier on a tie), or `nil` when every such target is taken.
        mutating func take(near time: Int, within tolerance: Int) -> Int? {
            let lowest = time.adding(saturating: -tolerance)
            let highest = time.adding(saturating: tolerance)
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] < lowest { low = middle + 1 } else { high = middle }
            }
            var best: Int?
            var index = low
            while index < starts.count, starts[index] <= highest {
                if taken[index] < members[index].count {
                    if let current = best {
                        if distance(starts[index], time) < distance(starts[current], time) { best = index }
                    } else {
                        best = index
                    }
                }
                index += 1
            }
            guard let best else { return nil }
            taken[best] += 1
            return members[best][taken[best] - 1]
        }

        private func distance(_ a: Int, _ b: Int) -> Int { a >= b ? a - b : b - a }
    }
}
