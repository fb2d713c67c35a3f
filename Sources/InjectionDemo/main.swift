import Injection

print("demo")
