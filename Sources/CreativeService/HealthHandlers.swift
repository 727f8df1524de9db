import CreativeCore

/// `GET /healthz`, `GET /readyz`, `GET /metrics`: no token needed, no job slot taken.
enum HealthHandlers {
    /// Prometheus's text exposition format, the type of every `/metrics` answer.
    static let metricsContentType = PrometheusText.contentType

    /// Liveness: the process answers HTTP.
    static func healthz(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        return .json(.object([("status", .string("ok"))]))
    }

    /// Readiness: libvips started and the service is not draining.
    static func readyz(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        if context.isDraining {
            throw .unavailable(code: "shutting_down", message: "the service is stopping; send work elsewhere")
        }
        if let failure = context.imagingFailure {
            throw .unavailable(code: "not_ready", message: failure)
        }
        let load = context.gate.load
        return .json(.object([
            ("status", .string("ready")),
            ("jobs_running", .int(load.running)),
            ("jobs_waiting", .int(load.waiting)),
            ("job_slots", .int(context.gate.slots)),
        ]))
    }

    /// Prometheus text.
    static func metrics(_ request: Request, _ context: ServiceContext) throws(ServiceError) -> Response {
        return Response(contentType: metricsContentType,
                        body: Array(context.metrics.render(gate: context.gate, service: context.gauges).utf8))
    }
}
