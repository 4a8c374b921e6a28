import Foundation

/// How many CPUs this process may use, which on a cluster or in a container is fewer than the
/// machine has: the default for `--jobs`.
package enum CPUs {
    /// The fewest of: what Slurm gave the task (`SLURM_CPUS_PER_TASK`), the CPUs the process's
    /// affinity mask allows (`taskset`, a cpuset), and the cgroup's CPU quota rounded up
    /// (`cpu.max`: a container's `--cpus`, a Kubernetes limit); the machine's count when none
    /// applies; at least 1.
    package static func available(environment: [String: String] = ProcessInfo.processInfo.environment,
                                 status: String? = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                                 cpuMax: String? = try? String(contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8)) -> Int {
        var counts = [ProcessInfo.processInfo.activeProcessorCount]
        if let slurm = environment["SLURM_CPUS_PER_TASK"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), slurm > 0 {
            counts.append(slurm)
        }
        if let status, let allowed = affinity(status) { counts.append(allowed) }
        if let cpuMax, let quota = quota(cpuMax) { counts.append(quota) }
        return max(1, counts.min() ?? 1)
    }

    /// The number of CPUs in `/proc/self/status`'s `Cpus_allowed_list` (`0-3,8,10-11` is 7).
    static func affinity(_ status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return nil }
        var count = 0
        for part in line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces).split(separator: ",") {
            let ends = part.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch ends.count {
            case 1: guard ends[0] != nil else { return nil }; count += 1
            case 2: guard let low = ends[0], let high = ends[1], high >= low else { return nil }; count += high - low + 1
            default: return nil
            }
        }
        return count > 0 ? count : nil
    }

    /// A cgroup v2 `cpu.max` (`QUOTA PERIOD`, or `max PERIOD` for none) as whole CPUs, rounded up.
    static func quota(_ cpuMax: String) -> Int? {
        let parts = cpuMax.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, let quota = Double(parts[0]), let period = Double(parts[1]), quota > 0, period > 0 else { return nil }
        return max(1, Int((quota / period).rounded(.up)))
    }
}
