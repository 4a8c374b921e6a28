import CGio

/// A D-Bus value as a Swift value. Read values come with variants unwrapped; values sent are
/// converted to exactly the D-Bus type their case names (MPRIS checks types: `Position` is `x`,
/// `Rate` is `d`, `Metadata` is `a{sv}`).
///
/// The corresponding C type is `GVariant`; this file is the only one that touches it.
package enum DBusValue: Sendable, Hashable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case byte(UInt8)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    /// `as` (or `ao` when read).
    case strings([String])
    /// `a{sv}`: each value is sent wrapped in a variant.
    case dictionary([String: DBusValue])
    /// Any other array (read only).
    case array([DBusValue])
    /// A tuple: method arguments, replies and signal bodies.
    case tuple([DBusValue])
    /// A type this layer does not read (its D-Bus type string).
    case unsupported(String)

    package var string: String? {
        switch self {
        case .string(let s), .objectPath(let s): return s
        case .strings(let list): return list.first
        default: return nil
        }
    }

    /// Strings, or a single string as a list (players disagree on `xesam:artist`).
    package var strings: [String]? {
        switch self {
        case .strings(let list): return list
        case .string(let s): return [s]
        default: return nil
        }
    }

    /// Any integer type as `Int64` (players send `mpris:length` as `x`, `t`, `i` or `u`).
    package var int64: Int64? {
        switch self {
        case .byte(let v): return Int64(v)
        case .int32(let v): return Int64(v)
        case .uint32(let v): return Int64(v)
        case .int64(let v): return v
        case .uint64(let v): return Int64(exactly: v)
        case .double(let v): return v.isFinite && abs(v) < 9e18 ? Int64(v) : nil
        default: return nil
        }
    }

    package var double: Double? {
        if case .double(let v) = self { return v }
        return int64.map(Double.init)
    }

    package var bool: Bool? {
        if case .bool(let v) = self { return v }
        return nil
    }

    package var dictionary: [String: DBusValue]? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    package var tuple: [DBusValue] {
        if case .tuple(let items) = self { return items }
        return [self]
    }
}

// MARK: - GVariant

extension DBusValue {
    /// Reads a GVariant (not consumed).
    init(variant: OpaquePointer) {
        let type = String(cString: g_variant_get_type_string(variant))
        func children() -> [DBusValue] {
            (0..<g_variant_n_children(variant)).map { i in
                let child = g_variant_get_child_value(variant, i)!
                defer { g_variant_unref(child) }
                return DBusValue(variant: child)
            }
        }
        switch type {
        case "s", "o", "g":
            let s = String(cString: g_variant_get_string(variant, nil))
            self = type == "o" ? .objectPath(s) : .string(s)
        case "b": self = .bool(g_variant_get_boolean(variant) != 0)
        case "y": self = .byte(g_variant_get_byte(variant))
        case "n": self = .int32(Int32(g_variant_get_int16(variant)))
        case "q": self = .uint32(UInt32(g_variant_get_uint16(variant)))
        case "i": self = .int32(g_variant_get_int32(variant))
        case "u": self = .uint32(g_variant_get_uint32(variant))
        case "x": self = .int64(Int64(g_variant_get_int64(variant)))
        case "t": self = .uint64(UInt64(g_variant_get_uint64(variant)))
        case "d": self = .double(g_variant_get_double(variant))
        case "v":
            let inner = g_variant_get_variant(variant)!
            defer { g_variant_unref(inner) }
            self = DBusValue(variant: inner)
        case "as", "ao":
            self = .strings(children().compactMap(\.string))
        case _ where type.hasPrefix("a{s"):
            var dictionary: [String: DBusValue] = [:]
            for entry in children() {
                if case .tuple(let pair) = entry, pair.count == 2, let key = pair[0].string { dictionary[key] = pair[1] }
            }
            self = .dictionary(dictionary)
        case _ where type.hasPrefix("a"):
            self = .array(children())
        case _ where type.hasPrefix("(") || type.hasPrefix("{"):
            self = .tuple(children())
        default:
            self = .unsupported(type)
        }
    }

    /// A new floating GVariant of this value (consumed by the GDBus call it is passed to).
    func makeVariant() -> OpaquePointer {
        switch self {
        case .string(let s): return g_variant_new_string(s)
        case .objectPath(let s):
            return g_variant_is_object_path(s) != 0 ? g_variant_new_object_path(s) : g_variant_new_object_path("/")
        case .bool(let v): return g_variant_new_boolean(v ? 1 : 0)
        case .byte(let v): return g_variant_new_byte(v)
        case .int32(let v): return g_variant_new_int32(v)
        case .uint32(let v): return g_variant_new_uint32(v)
        case .int64(let v): return g_variant_new_int64(gint64(v))
        case .uint64(let v): return g_variant_new_uint64(guint64(v))
        case .double(let v): return g_variant_new_double(v)
        case .strings(let list):
            return Self.array(list.map { g_variant_new_string($0) }, type: "s")
        case .dictionary(let d):
            // Sorted keys: the same value always makes the same message.
            let entries = d.keys.sorted().map { key in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(d[key]!.makeVariant()))!
            }
            return Self.array(entries, type: "{sv}")
        case .array(let items):
            return Self.array(items.map { g_variant_new_variant($0.makeVariant()) }, type: "v")
        case .tuple(let items):
            var children: [OpaquePointer?] = items.map { $0.makeVariant() }
            return g_variant_new_tuple(&children, gsize(children.count))
        case .unsupported: return g_variant_new_string("")
        }
    }

    private static func array(_ children: [OpaquePointer], type: String) -> OpaquePointer {
        var items: [OpaquePointer?] = children
        return type.withCString { g_variant_new_array(lp_variant_type($0), &items, gsize(items.count)) }
    }
}

extension MPRIS.Metadata {
    /// Reads metadata from a serialized `a{sv}` (D-Bus wire format, little-endian), as a player
    /// would send it; bytes that are not a valid `a{sv}` are read by GLib as an empty or default
    /// value, never past their end. For the fuzz target and tests.
    package init(serialized bytes: [UInt8]) {
        let value = bytes.withUnsafeBytes { raw -> DBusValue in
            guard let bytesObject = g_bytes_new(raw.baseAddress, gsize(raw.count)) else { return .dictionary([:]) }
            defer { g_bytes_unref(bytesObject) }
            let variant = "a{sv}".withCString { g_variant_new_from_bytes(lp_variant_type($0), bytesObject, 0) }!
            g_variant_ref_sink(variant)
            defer { g_variant_unref(variant) }
            return DBusValue(variant: variant)
        }
        self.init(value.dictionary ?? [:])
    }
}
