// creative-fuzz: libFuzzer over the validator. The fuzz target is `LLVMFuzzerTestOneInput` in
// FuzzTarget.swift; build and run it with `make fuzz SECONDS=N` (scripts/fuzz.sh).
//
// That build is `swift build --sanitize=fuzzer -Xswiftc -DCREATIVE_FUZZ`. With the fuzzer
// sanitizer SwiftPM compiles this module with -parse-as-library and links libFuzzer's own `main`,
// so this file must hold no top-level code then. A plain `swift build` builds the target without
// libFuzzer; this placeholder main only says how to build it. It is written as a global `let`
// (run in order as top-level code in main.swift) because even an inactive `#if` branch must parse
// under -parse-as-library, where a bare top-level expression is an error.
#if !CREATIVE_FUZZ
let placeholderNotice: Void = print("creative-fuzz: build and run it with `make fuzz SECONDS=N` (libFuzzer)")
#endif
