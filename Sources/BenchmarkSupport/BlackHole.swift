/// Placeholder for the black-hole sink.
public enum BenchmarkSupport {}
