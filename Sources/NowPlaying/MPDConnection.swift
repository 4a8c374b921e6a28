import Foundation

/// Where an MPD server listens, and the password it wants, if any.
///
/// Written `mpd` (then `$MPD_HOST` and `$MPD_PORT`, else `localhost:6600`, as `mpc` reads them),
/// `mpd://[PASSWORD@]HOST[:PORT]`, or a socket path: `mpd:///run/mpd/socket`, `mpd://PASSWORD@/run/mpd/socket`,
/// or `$MPD_HOST=/run/mpd/socket` (`password@/path` too). An IPv6 host goes in brackets.
package struct MPDAddress: Sendable, Hashable, CustomStringConvertible {
    package enum Endpoint: Sendable, Hashable {
        case tcp(host: String, port: Int)
        case socket(String)
    }

    package var endpoint: Endpoint
    package var password: String?

    package init(endpoint: Endpoint, password: String? = nil) {
        self.endpoint = endpoint
        self.password = password
    }

    /// How it is shown (never with the password).
    package var description: String {
        switch endpoint {
        case .tcp(let host, let port): "mpd://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .socket(let path): "mpd://\(path)"
        }
    }

    /// A local socket: MPD then answers `config` (its music directory).
    package var isLocalSocket: Bool {
        if case .socket = endpoint { return true }
        return false
    }

    /// Reads `text` (`mpd` or `mpd://…`); nil when it is not an MPD address. `environment` gives
    /// `MPD_HOST` and `MPD_PORT` for a bare `mpd`.
    package static func parse(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> MPDAddress? {
        if text == "mpd" {
            let port = environment["MPD_PORT"].flatMap(Int.init).flatMap { (1...65535).contains($0) ? $0 : nil } ?? 6600
            guard var host = environment["MPD_HOST"], !host.isEmpty else {
                return MPDAddress(endpoint: .tcp(host: "localhost", port: port))
            }
            var password: String?
            // `password@host`; an abstract socket `@name` has nothing before its `@`.
            if let at = host.lastIndex(of: "@"), at != host.startIndex {
                password = String(host[..<at])
                host = String(host[host.index(after: at)...])
            }
            if host.hasPrefix("/") || host.hasPrefix("@") { return MPDAddress(endpoint: .socket(host), password: password) }
            return MPDAddress(endpoint: .tcp(host: host, port: port), password: password)
        }
        guard text.lowercased().hasPrefix("mpd://") else { return nil }
        var rest = Substring(text.dropFirst(6))
        var password: String?
        // The password is everything before the last `@` ahead of the host (it may hold `@` itself).
        let hostStart = rest.firstIndex(of: "/") ?? rest.endIndex
        if let at = rest[..<hostStart].lastIndex(of: "@") {
            password = String(rest[..<at]).removingPercentEncoding ?? String(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        if rest.hasPrefix("/") {
            guard rest.count > 1 else { return nil }
            return MPDAddress(endpoint: .socket(String(rest)), password: password)
        }
        var host = rest, port = 6600
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let value = Int(after.dropFirst()) else { return nil }
                port = value
            }
        } else if let colon = rest.lastIndex(of: ":") {
            guard let value = Int(rest[rest.index(after: colon)...]) else { return nil }
            host = rest[..<colon]
            port = value
        }
        guard !host.isEmpty, (1...65535).contains(port), !host.contains("/") else { return nil }
        return MPDAddress(endpoint: .tcp(host: String(host), port: port), password: password)
    }
}

/// Why talking to MPD failed.
package enum MPDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing answers there (not running, refused, unreachable), or the connection dropped.
    case unreachable(String)
    /// The password was refused (or is needed and not given).
    case password(String)
    /// MPD refused a command: `ACK [code@index] {command} message`.
    case refused(code: Int, command: String, message: String)
    /// Something that is not the MPD protocol, or more than the limits allow.
    case malformed(String)

    package var description: String {
        switch self {
        case .unreachable(let reason): reason
        case .password(let message): "the password was refused (MPD said: \(message))"
        case .refused(_, let command, let message): "MPD refused \(command): \(message)"
        case .malformed(let reason): "not an MPD answer: \(reason)"
        }
    }
}

/// One connection to MPD speaking its text protocol: a command line out, `key: value` lines back
/// until `OK` (or `ACK …`), binary chunks for `readpicture` and `albumart`.
///
/// Not thread-safe: one caller at a time (``MPDWatcher`` keeps each connection behind a lock).
/// A blocking `idle` is ended from another thread by shutting down ``socket``.
package final class MPDConnection {
    /// The socket (for `shutdown` from another thread; closed when the connection goes).
    package let socket: Int32
    private var fd: Int32 { socket }
    private var buffer: [UInt8] = []
    private var start = 0
    /// MPD's protocol version, from its greeting (`OK MPD 0.23.5`).
    package let version: String

    /// A line longer than this, or an answer of more pairs, is not MPD's.
    static let maxLine = 64 * 1024
    static let maxPairs = 100_000

    /// Connects, reads the greeting and sends the password (if any).
    /// - Parameter timeout: for connecting and for each read (seconds); 0: reads wait for ever (idle).
    package convenience init(_ address: MPDAddress, timeout: Double = 3) throws(MPDError) {
        let fd = try Self.connect(address.endpoint, timeout: timeout)
        try self.init(socket: fd, password: address.password, timeout: timeout)
    }

    /// Takes over a connected socket (closed when the connection goes, or now if this throws),
    /// reads the greeting and sends the password (if any).
    package init(socket fd: Int32, password: String?, timeout: Double = 3) throws(MPDError) {
        socket = fd
        var whole = false
        do throws(MPDError) {
            if timeout > 0 { Self.setReadTimeout(fd, timeout) }
            var greeting = try Self.readLine(fd, &buffer, &start)
            if greeting.hasSuffix("\r") { greeting.removeLast() }
            guard greeting.hasPrefix("OK MPD ") else { throw MPDError.malformed("the greeting was \(greeting.prefix(60).debugDescription)") }
            version = String(greeting.dropFirst(7).prefix(32))
            whole = true
            if let password {
                do { _ = try command("password", password) } catch {
                    if case .refused(_, _, let message) = error { throw MPDError.password(message) }
                    throw error
                }
            }
        } catch {
            // Once every property is set, a throw still runs deinit, which closes the socket.
            if !whole { Glibc.close(fd) }
            throw error
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends `name` with its arguments (quoted) and returns the answer's pairs in order.
    @discardableResult
    package func command(_ name: String, _ arguments: String...) throws(MPDError) -> [(key: String, value: String)] {
        try send(name, arguments)
        return try readAnswer(name).pairs
    }

    /// A binary command (`readpicture`, `albumart`): the pairs and the chunk of bytes.
    package func binaryCommand(_ name: String, _ arguments: String...) throws(MPDError) -> (pairs: [(key: String, value: String)], data: Data) {
        try send(name, arguments)
        return try readAnswer(name)
    }

    /// The whole binary object of `name` for `uri` (`readpicture` or `albumart`), in chunks; nil
    /// when MPD has none. More than `maxBytes` is refused as soon as MPD states the size.
    package func picture(_ name: String, uri: String, maxBytes: Int) throws(MPDError) -> Data? {
        var data = Data()
        var total: Int?
        repeat {
            let answer: (pairs: [(key: String, value: String)], data: Data)
            do { answer = try binaryCommand(name, uri, String(data.count)) } catch {
                // albumart answers "No file exists" when the folder has no cover.
                if case .refused(let code, _, _) = error, code == 50 { return nil }
                throw error
            }
            guard let size = answer.pairs.first(where: { $0.key == "size" }).flatMap({ Int($0.value) }) else {
                return nil  // readpicture without a picture answers a bare OK
            }
            guard size <= maxBytes else {
                throw MPDError.malformed("the picture is \(size) bytes, more than the cover limit of \(maxBytes)")
            }
            guard total == nil || total == size, !answer.data.isEmpty || size == 0 else { throw MPDError.malformed("a picture's size changed") }
            total = size
            data.append(answer.data)
        } while data.count < (total ?? 0)
        return data.isEmpty ? nil : data
    }

    // MARK: - Details

    private func send(_ name: String, _ arguments: [String]) throws(MPDError) {
        var line = name
        for argument in arguments {
            guard !argument.contains("\n") else { throw MPDError.malformed("an argument holds a line break") }
            line += " \"" + argument.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        line += "\n"
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { throw MPDError.unreachable("the connection to MPD closed (\(String(cString: strerror(errno))))") }
            bytes = bytes.dropFirst(sent)
        }
    }

    private func readAnswer(_ name: String) throws(MPDError) -> (pairs: [(key: String, value: String)], data: Data) {
        var pairs: [(key: String, value: String)] = []
        var data = Data()
        while true {
            let line = try Self.readLine(fd, &buffer, &start)
            if line == "OK" { return (pairs, data) }
            if line.hasPrefix("ACK ") { throw Self.refusal(line, command: name) }
            guard let colon = line.range(of: ": ") else { throw MPDError.malformed("the line \(line.prefix(60).debugDescription)") }
            let key = String(line[..<colon.lowerBound]), value = String(line[colon.upperBound...])
            if key == "binary" {
                guard let count = Int(value), count >= 0, count <= 16 << 20 else { throw MPDError.malformed("a binary chunk of \(value) bytes") }
                data = try Self.readBytes(fd, &buffer, &start, count: count)
                // The chunk ends with a line break of its own.
                guard try Self.readLine(fd, &buffer, &start).isEmpty else { throw MPDError.malformed("no line break after a binary chunk") }
                continue
            }
            pairs.append((key, value))
            guard pairs.count <= Self.maxPairs else { throw MPDError.malformed("more than \(Self.maxPairs) lines in one answer") }
        }
    }

    /// `ACK [50@0] {albumart} No file exists`.
    static func refusal(_ line: String, command: String) -> MPDError {
        var code = 0, named = command, message = line
        if let open = line.firstIndex(of: "["), let at = line[open...].firstIndex(of: "@") {
            code = Int(line[line.index(after: open)..<at]) ?? 0
        }
        if let open = line.firstIndex(of: "{"), let close = line[open...].firstIndex(of: "}") {
            named = String(line[line.index(after: open)..<close])
            message = String(line[line.index(after: close)...]).trimmingCharacters(in: .whitespaces)
        }
        // 3: ACK_ERROR_PASSWORD; 4: ACK_ERROR_PERMISSION (a command that needs a password).
        if code == 3 || (code == 4 && command != "config") { return .password(message) }
        return .refused(code: code, command: named, message: message)
    }

    private static func fill(_ fd: Int32, _ buffer: inout [UInt8], _ start: inout Int) throws(MPDError) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw MPDError.unreachable("MPD did not answer in time") }
            guard count > 0 else { throw MPDError.unreachable("the connection to MPD closed") }
            buffer.append(contentsOf: chunk[..<count])
            return
        }
    }

    private static func readLine(_ fd: Int32, _ buffer: inout [UInt8], _ start: inout Int) throws(MPDError) -> String {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return line
            }
            guard buffer.count - start <= maxLine else { throw MPDError.malformed("a line longer than \(maxLine) bytes") }
            try fill(fd, &buffer, &start)
        }
    }

    private static func readBytes(_ fd: Int32, _ buffer: inout [UInt8], _ start: inout Int, count: Int) throws(MPDError) -> Data {
        while buffer.count - start < count { try fill(fd, &buffer, &start) }
        let data = Data(buffer[start..<(start + count)])
        start += count
        return data
    }

    private static func setReadTimeout(_ fd: Int32, _ seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func connect(_ endpoint: MPDAddress.Endpoint, timeout: Double) throws(MPDError) -> Int32 {
        switch endpoint {
        case .socket(let path):
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw MPDError.unreachable("no socket: \(String(cString: strerror(errno)))") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            // `@name`: Linux's abstract namespace (a leading NUL).
            var bytes = Array(path.utf8)
            if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            guard bytes.count < capacity else {
                Glibc.close(fd)
                throw MPDError.unreachable("\(path): the socket path is too long")
            }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in bytes.enumerated() { raw[i] = byte }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
            }
            guard result == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(fd)
                throw MPDError.unreachable("\(path): \(reason)")
            }
            return fd
        case .tcp(let host, let port):
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else {
                throw MPDError.unreachable("\(host): \(String(cString: gai_strerror(status)))")
            }
            defer { freeaddrinfo(list) }
            var reason = "no address"
            var entry: UnsafeMutablePointer<addrinfo>? = first
            while let info = entry {
                entry = info.pointee.ai_next
                let fd = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
                guard fd >= 0 else { continue }
                if timeout > 0 { setReadTimeout(fd, timeout) }
                if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                    var on: Int32 = 1
                    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                    return fd
                }
                reason = String(cString: strerror(errno))
                Glibc.close(fd)
            }
            throw MPDError.unreachable("\(host):\(port): \(reason)")
        }
    }
}
