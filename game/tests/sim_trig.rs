//! The simulation's trigonometry gives the same bits on every platform: the direction of every
//! angle it can throw debris or a coin at (`sim::directions_hash`, 2^24 angles) hashes to the
//! value `tools/wasm-check.sh` sees from the same code built for WebAssembly and run in
//! Node.js. With the platform's `f32::sin` and `f32::cos` instead of `libm`'s, a native Linux
//! build gives `5ee85ed03c2c3832` (glibc's and musl's results differ on about one angle in
//! eighty), and this test fails.

#[test]
fn the_sims_directions_are_those_it_computes_in_webassembly() {
    assert_eq!(
        format!("{:016x}", game::sim::directions_hash()),
        "b45c6fbf9cb70966"
    );
}
