#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Natural logarithm (kept in one place so the rules read as formulas).
@inline(__always) func logarithm(_ value: Double) -> Double { log(value) }
