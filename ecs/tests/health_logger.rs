//! The `health_logger` example prints exactly what the source post promises.

// The example's logic lives in `run()`; its `main` is unused here.
#[allow(dead_code)]
#[path = "../examples/health_logger.rs"]
mod example;

#[test]
fn health_logger_prints_only_changed_health() {
    assert_eq!(example::run(), ["10/10", "8/10"]);
}
