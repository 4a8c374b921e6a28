import Foundation

/// Runs a command and measures it: wall time from spawn to exit and CPU time (wait4's rusage), and
/// peak resident memory as /usr/bin/time reports it. (Linux carries a process's peak RSS across
/// exec, so a child spawned straight from this benchmark would report the benchmark's own peak;
/// /usr/bin/time is a small process in between.)
struct Measured {
    var wall: Double
    var cpu: Double
    var peakRSSMB: Double
    var status: Int32
    var stderr: String
}

func measure(_ executable: String, _ arguments: [String]) throws -> Measured {
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(getpid())-stderr").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let timed = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
    let command = timed ? ["/usr/bin/time", "-f", "LYRICPOSTER-BENCH-RSS %M", executable] + arguments : [executable] + arguments
    let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
    guard spawned == 0 else { throw BenchError("cannot run \(executable): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    var stderr = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
    unlink(errorFile)
    var rssKB = Double(usage.ru_maxrss)
    if timed, let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix("LYRICPOSTER-BENCH-RSS ") }) {
        rssKB = Double(line.split(separator: " ").last ?? "") ?? rssKB
        stderr = stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("LYRICPOSTER-BENCH-RSS ") && !$0.hasPrefix("Command exited with non-zero status") }
            .joined(separator: "\n")
    }
    let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return Measured(wall: wall, cpu: cpu, peakRSSMB: rssKB / 1024, status: exit, stderr: stderr)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
