import ServerExample

print("InjectionServerExample: not written yet")
