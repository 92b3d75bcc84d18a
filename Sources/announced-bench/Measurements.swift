// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc

/// Monotonic time in nanoseconds.
func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Samples of one figure, in milliseconds.
struct Figure {
    var name: String
    var values: [Double] = []
    var unit = "ms"
    /// Printed after the figure's target, e.g. how busy the machine was.
    var note = ""

    mutating func add(nanoseconds: UInt64) {
        values.append(Double(nanoseconds) / 1e6)
        BenchProgress.shared.sampled(name, count: values.count)
    }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count - 1)).rounded())
        return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
    }

    var p50: Double { percentile(50) }
    var p99: Double { percentile(99) }
    var max: Double { values.max() ?? .nan }
}

/// Formats a number with a fixed number of decimals.
func format(_ value: Double, _ decimals: Int = 3) -> String {
    guard value.isFinite else { return "-" }
    var text = String(Int((value * pow(10, Double(decimals))).rounded()))
    let negative = text.hasPrefix("-")
    if negative { text.removeFirst() }
    while text.count <= decimals { text = "0" + text }
    let split = text.index(text.endIndex, offsetBy: -decimals)
    let result = decimals == 0 ? text : text[..<split] + "." + text[split...]
    return (negative ? "-" : "") + result
}

/// Pads to a width, left-aligned.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// A process's resident memory from /proc/PID/status, in MiB: all of it, and the part that
/// is anonymous (heap, stacks) and file-backed (code and data of the executable and libraries).
struct Resident {
    var total = Double.nan
    var anonymous = Double.nan
    var file = Double.nan

    init(pid: Int32) {
        guard let status = fopen("/proc/\(pid)/status", "r") else { return }
        defer { fclose(status) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, status) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let mebibytes = (Double(text.filter(\.isNumber)) ?? .nan) / 1024
            if text.hasPrefix("VmRSS:") { total = mebibytes }
            if text.hasPrefix("RssAnon:") { anonymous = mebibytes }
            if text.hasPrefix("RssFile:") { file = mebibytes }
        }
    }

    /// "19.8 (anonymous 4.5, files 15.3)".
    var described: String { "\(format(total, 1)) (anonymous \(format(anonymous, 1)), files \(format(file, 1)))" }
}

/// The resident set size of a process, in MiB, from /proc.
func residentMiB(pid: Int32) -> Double { Resident(pid: pid).total }

/// The child processes of `pid` (the daemon's espeak-ng helper), from /proc.
func childProcesses(of pid: Int32) -> [Int32] {
    guard let tasks = opendir("/proc/\(pid)/task") else { return [] }
    defer { closedir(tasks) }
    var children: [Int32] = []
    while let entry = readdir(tasks) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard Int32(task) != nil, let file = fopen("/proc/\(pid)/task/\(task)/children", "r") else { continue }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, 4096, file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            children += text.split(separator: " ").compactMap { Int32($0.filter(\.isNumber)) }
        }
        fclose(file)
    }
    return children
}

/// The machine's CPU time counters from /proc/stat, to tell how busy it was during a figure.
struct CPUTimes {
    var idle: UInt64 = 0
    var total: UInt64 = 0

    static func now() -> CPUTimes {
        guard let file = fopen("/proc/stat", "r") else { return CPUTimes() }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        guard fgets(&line, 512, file) != nil else { return CPUTimes() }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // cpu user nice system idle iowait irq softirq steal ...
        let fields = text.split(separator: " ").dropFirst().compactMap { UInt64($0.filter(\.isNumber)) }
        guard fields.count >= 5 else { return CPUTimes() }
        return CPUTimes(idle: fields[3] + fields[4], total: fields.prefix(8).reduce(0, +))
    }

    /// The share of CPU time that was idle between `earlier` and this reading, in percent.
    func idlePercent(since earlier: CPUTimes) -> Double {
        guard total > earlier.total else { return .nan }
        return Double(idle - earlier.idle) / Double(total - earlier.total) * 100
    }
}
