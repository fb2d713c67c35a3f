print("InjectionBenchmarks: not written yet")
