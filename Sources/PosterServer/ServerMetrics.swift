import Foundation
import Hummingbird
import Metrics
import NIOCore
import Prometheus

/// What `/metrics` reports, in Prometheus text: requests by route, method and status and their
/// durations (Hummingbird's metrics middleware), and the renderer's own figures — render latency,
/// queue depth, picture-cache hits and misses, event clients. Recorded through swift-metrics; the
/// Prometheus registry is its backend, bootstrapped once per process.
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    let renderSeconds: Metrics.Timer
    let queueDepth: Metrics.Gauge
    let cacheHits: Metrics.Counter
    let cacheMisses: Metrics.Counter
    let eventClients: Metrics.Gauge

    private static let bootstrapped: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Renders take milliseconds to a second or two.
        factory.durationHistogramBuckets["lyricposter_render_seconds"] =
            [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5].map { Duration.milliseconds(Int64($0 * 1000)) }
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    init() {
        registry = Self.bootstrapped
        renderSeconds = Metrics.Timer(label: "lyricposter_render_seconds", preferredDisplayUnit: .seconds)
        queueDepth = Metrics.Gauge(label: "lyricposter_render_queue_depth")
        cacheHits = Metrics.Counter(label: "lyricposter_picture_cache_hits_total")
        cacheMisses = Metrics.Counter(label: "lyricposter_picture_cache_misses_total")
        eventClients = Metrics.Gauge(label: "lyricposter_event_clients")
    }

    func response() -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }
}
