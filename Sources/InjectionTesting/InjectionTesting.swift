// Placeholder: the InjectionTesting module is written in the testing issue.
import Injection
