import CGio
import Foundation
import Locks

/// A D-Bus failure: the bus could not be reached, a call failed or timed out, a name was taken.
package struct BusError: Error, CustomStringConvertible, Sendable {
    /// The D-Bus error name when the remote side sent one (`org.freedesktop.DBus.Error.ServiceUnknown`).
    package var name: String?
    package var message: String
    package var description: String { message }

    package init(name: String? = nil, _ message: String) {
        self.name = name
        self.message = message
    }

    /// Takes (and frees) a GError.
    init(_ error: UnsafeMutablePointer<GError>?, _ what: String) {
        guard let error else { self.init("\(what): unknown error"); return }
        defer { g_error_free(error) }
        var name: String?
        if let remote = g_dbus_error_get_remote_error(error) {
            name = String(cString: remote)
            g_free(remote)
            g_dbus_error_strip_remote_error(error)
        }
        self.init(name: name, "\(what): \(String(cString: error.pointee.message))")
    }
}

/// A signal received on the bus.
package struct BusSignal: Sendable {
    /// The sender's unique name (`:1.42`).
    package var sender: String
    package var path: String
    package var interface: String
    package var member: String
    package var arguments: [DBusValue]
}

/// What a published object answers: method calls, property reads and writes. Called on the bus
/// thread; keep them short.
package struct ObjectHandler: Sendable {
    /// A method call's reply (a tuple, or nil for none), or a D-Bus error name and message.
    package var call: @Sendable (_ interface: String, _ method: String, _ arguments: [DBusValue]) -> Result<DBusValue?, BusError>
    /// A property's value, of exactly the type the interface declares; nil: no such property.
    package var get: @Sendable (_ interface: String, _ property: String) -> DBusValue?
    /// Sets a writable property; false refuses it.
    package var set: @Sendable (_ interface: String, _ property: String, _ value: DBusValue) -> Bool

    package init(call: @escaping @Sendable (String, String, [DBusValue]) -> Result<DBusValue?, BusError>,
                get: @escaping @Sendable (String, String) -> DBusValue?,
                set: @escaping @Sendable (String, String, DBusValue) -> Bool) {
        self.call = call
        self.get = get
        self.set = set
    }
}

/// A connection to the session bus, with its own thread running the GLib main loop that delivers
/// signals and method calls to the handlers given here.
///
/// The corresponding C type is `GDBusConnection`, which GLib documents as thread-safe: every
/// method here may be called from any thread.
///
/// `@unchecked Sendable`: its C pointers (the connection, the main loop and its context) are set
/// once in `init` and then used only through GLib calls that are thread-safe; the one piece of
/// Swift state that changes (the subscriptions) is ``Guarded``.
package final class Bus: @unchecked Sendable {
    private let connection: OpaquePointer
    private let loop: OpaquePointer
    private let context: OpaquePointer
    private let thread: Thread
    private let subscriptions = Guarded<[UInt32]>([])

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`) on a private connection.
    package init() throws(BusError) {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw BusError(error, "no session bus")
        }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
            | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            throw BusError(error, "cannot connect to the session bus")
        }
        // A player's bus going away must not end the process (GDBus's default is exit(1)).
        g_dbus_connection_set_exit_on_close(connection, 0)
        self.connection = connection
        // Handlers run on this loop's thread. GDBus dispatches signals and method calls to the
        // thread-default context of the thread that registered them; no thread here pushes one, so
        // that is the global default context, which only this thread runs.
        context = g_main_context_ref(g_main_context_default())
        loop = g_main_loop_new(context, 0)
        // The loop crosses to its thread as an integer (GMainLoop is thread-safe).
        let loopAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(loop)))
        thread = Thread {
            g_main_loop_run(OpaquePointer(bitPattern: loopAddress))
        }
        thread.name = "lyricposter-bus"
        thread.start()
    }

    deinit {
        for id in subscriptions.withLock({ $0 }) { g_dbus_connection_signal_unsubscribe(connection, UInt32(id)) }
        g_main_loop_quit(loop)
        g_dbus_connection_close_sync(connection, nil, nil)
        lp_g_object_unref(UnsafeMutableRawPointer(connection))
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    /// True once the connection is closed (the bus went away: a logout, a restarted daemon).
    package var isClosed: Bool { g_dbus_connection_is_closed(connection) != 0 }

    /// Calls a method and waits for its reply (at most `timeoutMs`). Returns the reply's values.
    @discardableResult
    package func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
                     _ arguments: [DBusValue] = [], timeoutMs: Int32 = 2000) throws(BusError) -> [DBusValue] {
        var error: UnsafeMutablePointer<GError>?
        let parameters = DBusValue.tuple(arguments).makeVariant()
        guard let reply = g_dbus_connection_call_sync(connection, destination, path, interface, method, parameters, nil,
                                                      G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMs, nil, &error)
        else { throw BusError(error, "\(destination) \(interface).\(method)") }
        defer { g_variant_unref(reply) }
        return DBusValue(variant: reply).tuple
    }

    /// Sends a method call without waiting for (or reading) its reply.
    package func send(_ destination: String, _ path: String, _ interface: String, _ method: String,
                     _ arguments: [DBusValue] = []) {
        let parameters = DBusValue.tuple(arguments).makeVariant()
        g_dbus_connection_call(connection, destination, path, interface, method, parameters, nil,
                               G_DBUS_CALL_FLAGS_NO_AUTO_START, 2000, nil, nil, nil)
    }

    /// Reads one property through `org.freedesktop.DBus.Properties.Get`.
    package func property(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(BusError) -> DBusValue {
        let reply = try call(destination, path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)])
        guard let value = reply.first else { throw BusError("\(destination) \(interface).\(name): empty reply") }
        return value
    }

    /// Every property of an interface.
    package func properties(_ destination: String, _ path: String, _ interface: String) throws(BusError) -> [String: DBusValue] {
        let reply = try call(destination, path, "org.freedesktop.DBus.Properties", "GetAll", [.string(interface)])
        return reply.first?.dictionary ?? [:]
    }

    /// Calls `handler` on the bus thread for every matching signal. nil matches anything; with
    /// `arg0Namespace`, `arg0` matches the first argument as a dotted name prefix.
    package func subscribe(sender: String? = nil, interface: String?, member: String?, path: String? = nil,
                          arg0: String? = nil, arg0Namespace: Bool = false,
                          _ handler: @escaping @Sendable (BusSignal) -> Void) {
        final class Box { let handler: @Sendable (BusSignal) -> Void; init(_ h: @escaping @Sendable (BusSignal) -> Void) { handler = h } }
        let box = Unmanaged.passRetained(Box(handler)).toOpaque()
        let flags = arg0Namespace ? G_DBUS_SIGNAL_FLAGS_MATCH_ARG0_NAMESPACE : G_DBUS_SIGNAL_FLAGS_NONE
        let id = g_dbus_connection_signal_subscribe(
            connection, sender, interface, member, path, arg0, flags,
            { _, sender, path, interface, member, parameters, data in
                guard let data, let parameters else { return }
                let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
                func text(_ p: UnsafePointer<gchar>?) -> String { p.map { String(cString: $0) } ?? "" }
                box.handler(BusSignal(sender: text(sender), path: text(path), interface: text(interface), member: text(member),
                                      arguments: DBusValue(variant: parameters).tuple))
            },
            box, { data in if let data { Unmanaged<Box>.fromOpaque(data).release() } })
        subscriptions.withLock { $0.append(id) }
    }

    /// Emits a signal from `path`.
    package func emit(path: String, interface: String, member: String, _ arguments: [DBusValue]) throws(BusError) {
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_emit_signal(connection, nil, path, interface, member, DBusValue.tuple(arguments).makeVariant(), &error) == 0 {
            throw BusError(error, "\(interface).\(member)")
        }
    }

    /// Takes a well-known name; false when another connection holds it.
    package func requestName(_ name: String) throws(BusError) -> Bool {
        // 4 = DBUS_NAME_FLAG_DO_NOT_QUEUE; reply 1 = primary owner, 4 = already owner.
        let reply = try call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                             [.string(name), .uint32(4)])
        let code = reply.first?.int64 ?? 0
        return code == 1 || code == 4
    }

    package func releaseName(_ name: String) {
        _ = try? call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReleaseName", [.string(name)],
                      timeoutMs: 500)
    }

    /// Publishes an object at `path` with the interfaces of an introspection document; `handler`
    /// answers for all of them (GDBus itself answers `Properties.Get/GetAll/Set` and introspection
    /// through it, and checks property types against the document).
    package func register(path: String, introspection xml: String, handler: ObjectHandler) throws(BusError) {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(xml, &error) else { throw BusError(error, "introspection document") }
        defer { g_dbus_node_info_unref(node) }
        final class Box { let handler: ObjectHandler; init(_ h: ObjectHandler) { handler = h } }
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, interface, method, parameters, invocation, data in
            guard let data, let invocation else { return }
            let handler = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().handler
            let arguments = parameters.map { DBusValue(variant: $0).tuple } ?? []
            switch handler.call(interface.map { String(cString: $0) } ?? "", method.map { String(cString: $0) } ?? "", arguments) {
            case .success(let reply):
                g_dbus_method_invocation_return_value(invocation, reply?.makeVariant())
            case .failure(let failure):
                g_dbus_method_invocation_return_dbus_error(invocation, failure.name ?? "org.freedesktop.DBus.Error.Failed", failure.message)
            }
        }
        vtable.get_property = { _, _, _, interface, property, error, data in
            guard let data else { return nil }
            let handler = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().handler
            let name = property.map { String(cString: $0) } ?? ""
            if let value = handler.get(interface.map { String(cString: $0) } ?? "", name) { return value.makeVariant() }
            g_set_error_literal(error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "no property \(name)")
            return nil
        }
        vtable.set_property = { _, _, _, interface, property, value, error, data in
            guard let data, let value else { return 0 }
            let handler = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue().handler
            let name = property.map { String(cString: $0) } ?? ""
            if handler.set(interface.map { String(cString: $0) } ?? "", name, DBusValue(variant: value)) { return 1 }
            g_set_error_literal(error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_PROPERTY_READ_ONLY.rawValue), "cannot set \(name)")
            return 0
        }
        var index = 0
        while let interface = node.pointee.interfaces?[index] {
            index += 1
            let box = Unmanaged.passRetained(Box(handler)).toOpaque()
            if g_dbus_connection_register_object(connection, path, interface, &vtable, box,
                                                 { data in if let data { Unmanaged<Box>.fromOpaque(data).release() } }, &error) == 0 {
                throw BusError(error, "cannot publish \(path)")
            }
        }
    }
}
