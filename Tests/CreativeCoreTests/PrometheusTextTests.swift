import CreativeCore
import XCTest

/// The one writer of the Prometheus text, which `serve` and `worker` declare their metrics for.
final class PrometheusTextTests: XCTestCase {
    func testFamiliesAreWrittenWithHelpTypeAndEscapedLabels() {
        let text = PrometheusText.write([
            .single("jobs_total", .counter, "Jobs.", 3),
            .single("lag", .gauge, "Not known yet.", nil),
            .by("code", "errors_total", .counter, "Errors.", ["timeout": 2, "bad_request": 1]),
            MetricFamily(name: "info", kind: .gauge, help: "Build.",
                         samples: [MetricFamily.Sample(labels: [("file", "a\"b\\c\nd")], value: 1)]),
            .single("cpu_seconds_total", .counter, "CPU.", 0.25),
        ])
        XCTAssertEqual(text, """
            # HELP jobs_total Jobs.
            # TYPE jobs_total counter
            jobs_total 3
            # HELP lag Not known yet.
            # TYPE lag gauge
            # HELP errors_total Errors.
            # TYPE errors_total counter
            errors_total{code="bad_request"} 1
            errors_total{code="timeout"} 2
            # HELP info Build.
            # TYPE info gauge
            info{file="a\\"b\\\\c\\nd"} 1
            # HELP cpu_seconds_total CPU.
            # TYPE cpu_seconds_total counter
            cpu_seconds_total 0.25

            """)
    }

    func testAHistogramHasItsBucketsInfSumAndCountPerSeries() {
        let text = PrometheusText.write([.histogram("seconds", "Time.", bounds: [0.5, 1], [
            MetricFamily.Series(labels: [("route", "/a")], cumulative: [1, 2], sum: 1.25, count: 3),
        ])])
        XCTAssertEqual(text, """
            # HELP seconds Time.
            # TYPE seconds histogram
            seconds_bucket{route="/a",le="0.5"} 1
            seconds_bucket{route="/a",le="1"} 2
            seconds_bucket{route="/a",le="+Inf"} 3
            seconds_sum{route="/a"} 1.25
            seconds_count{route="/a"} 3

            """)
    }
}
