import Injection
print("demo")
